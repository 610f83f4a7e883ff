package org.ivsbench.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import org.ivsbench.bench.BenchmarkModule;
import org.ivsbench.bench.BenchmarkRegistry;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.ConfigException;
import org.ivsbench.mode.ReplayRun;
import org.ivsbench.mode.UsageException;
import org.ivsbench.trace.Replayer;
import org.ivsbench.trace.Trace;
import org.ivsbench.trace.TraceException;

/**
 * {@code java -jar benchbase.jar replay --trace FILE -c TARGET.xml}: re-executes a trace written with --trace on
 * the config's database and compares every read's result with the recorded one (docs/trace.md). The config
 * gives only the database and the schema (for --create/--load); the operations are the trace's.
 */
@Command(
        name = "replay",
        mixinStandardHelpOptions = true,
        usageHelpAutoWidth = true,
        sortOptions = false,
        description = "Re-execute a trace (--trace FILE of a run) against the database of a config, and compare the"
                + " results of its reads with the recorded ones.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:replayed, digests equal",
            "1:digests differ, or a database error",
            "2:bad option, config or trace file"
        })
final class ReplayCommand implements Callable<Integer> {
    @Option(names = "--trace", required = true, paramLabel = "FILE", description = "The trace to replay.")
    Path trace;

    @Option(
            names = {"-c", "--config"},
            required = true,
            paramLabel = "FILE",
            description = "Config of the target database (its <type>, <url>, credentials and schema parameters).")
    Path config;

    @Option(
            names = "--timing",
            paramLabel = "MODE",
            defaultValue = "recorded",
            description = "recorded: each operation at its recorded start offset (open loop); fast: back to back"
                    + " (default: ${DEFAULT-VALUE}).")
    String timing;

    @Option(
            names = "--terminals",
            paramLabel = "N",
            defaultValue = "0",
            description = "Replay threads (0, the default: one per recorded terminal). Fewer threads share recorded"
                    + " terminals, each keeping its order; more than recorded are not used.")
    int terminals;

    @Option(
            names = {"-d", "--directory"},
            paramLabel = "DIR",
            defaultValue = "results",
            description = "Parent folder of the replay's results folder (default: ${DEFAULT-VALUE}).")
    Path directory;

    @Option(
            names = "--create",
            arity = "0..1",
            fallbackValue = "true",
            paramLabel = "BOOL",
            description = "Create the schema first (drops existing tables).")
    boolean create;

    @Option(
            names = "--load",
            arity = "0..1",
            fallbackValue = "true",
            paramLabel = "BOOL",
            description = "Load the initial data first (use the recorded run's seed and record count).")
    boolean load;

    private final PrintStream out = System.out;
    private final PrintStream err = System.err;

    @Override
    public Integer call() {
        Replayer.Timing mode;
        Trace t;
        BenchmarkModule module;
        BenchmarkConfig cfg;
        try {
            mode = timing(timing);
            if (terminals < 0) {
                throw new UsageException(
                        "--terminals: '" + terminals + "' must be 0 (one per recorded terminal) or" + " more");
            }
            t = Trace.read(trace);
        } catch (UsageException e) {
            err.println("error: " + e.getMessage());
            return Main.USAGE;
        } catch (TraceException e) {
            err.println("error: --trace " + trace + ": " + e.getMessage());
            return Main.USAGE;
        }
        try {
            CommandSetup.checkConfigFile("-c:", config);
            String name = t.header().benchmark();
            module = BenchmarkRegistry.create(name)
                    .orElseThrow(() -> new UsageException(
                            "--trace " + trace + ": benchmark '" + name + "' is unknown to this build"));
            cfg = CommandSetup.loadConfig(module, config);
            CommandSetup.checkResultsFolder(directory);
        } catch (UsageException e) {
            err.println("error: " + e.getMessage());
            return Main.USAGE;
        } catch (ConfigException e) {
            err.println("error: " + config + ": " + e.getMessage());
            return Main.USAGE;
        }
        return new ReplayRun(out, err)
                .run(module, cfg, t, new ReplayRun.Options(mode, terminals, directory, create, load));
    }

    private static Replayer.Timing timing(String value) throws UsageException {
        try {
            return Replayer.Timing.valueOf(value.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new UsageException("--timing: '" + value + "' must be recorded or fast");
        }
    }
}
