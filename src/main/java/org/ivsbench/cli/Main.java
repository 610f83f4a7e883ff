package org.ivsbench.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.Callable;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import org.ivsbench.mode.RunOptions;
import org.ivsbench.run.RunLifecycle;
import org.ivsbench.stats.EnvironmentWriter;

/**
 * {@code java -jar benchbase.jar -b ycsbivs -c config.xml --create=true --load=true --execute=true}.
 * Exit codes: 0 success, 1 the run failed (database error), 2 bad input (options, config), 130 interrupted
 * (results of what was measured are still written).
 */
@Command(
        name = "benchbase",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        sortOptions = false,
        usageHelpAutoWidth = true,
        description =
                "ivsbench: phased, rate-controlled database benchmarks (ycsbivs = YCSB with Increasing Value Sizes).",
        subcommands = {
            MonitorAgentCommand.class,
            ImportDstatCommand.class,
            MonitorOverheadCommand.class,
            ReplayCommand.class,
            GenerateCommand.class,
            MergeCommand.class,
            TenantsCommand.class
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:success",
            "1:the run failed (database error)",
            "2:bad option or configuration",
            "130:interrupted by SIGINT (what was measured is written)",
            "143:interrupted by SIGTERM (what was measured is written)"
        })
public final class Main implements Callable<Integer> {
    public static final int OK = RunLifecycle.COMPLETED;
    public static final int FAILED = RunLifecycle.FAILED;
    public static final int USAGE = 2;
    public static final int INTERRUPTED = RunLifecycle.INTERRUPTED;

    @Option(
            names = {"-b", "--bench"},
            paramLabel = "NAME",
            description = "Benchmark to run: ycsbivs, or ycsb (BenchBase's YCSB).")
    String benchmark;

    @Option(
            names = {"-c", "--config"},
            paramLabel = "FILE",
            description = "Benchmark configuration XML.")
    Path config;

    @Option(
            names = "--create",
            arity = "0..1",
            fallbackValue = "true",
            paramLabel = "BOOL",
            description = "Create the schema (drops existing tables).")
    boolean create;

    @Option(
            names = "--clear",
            arity = "0..1",
            fallbackValue = "true",
            paramLabel = "BOOL",
            description = "Remove the benchmark's tables.")
    boolean clear;

    @Option(
            names = "--load",
            arity = "0..1",
            fallbackValue = "true",
            paramLabel = "BOOL",
            description = "Load the initial data.")
    boolean load;

    @Option(
            names = "--execute",
            arity = "0..1",
            fallbackValue = "true",
            paramLabel = "BOOL",
            description = "Run the configured phases (or experiment).")
    boolean execute;

    @Option(
            names = "--resume",
            arity = "0..1",
            fallbackValue = "true",
            paramLabel = "BOOL",
            description = "With an <experiment>: continue the newest experiment folder after its last finished epoch.")
    boolean resume;

    @Option(
            names = "--shrink",
            arity = "0..1",
            fallbackValue = "true",
            paramLabel = "BOOL",
            description = "Run the config at a smoke-test size (at most 100 records, 2 s or 200 operations per phase,"
                    + " 1 epoch, 2 trials, 2 sweep points per axis); says what it shrank; results record it.")
    boolean shrink;

    @Option(
            names = {"-d", "--directory"},
            paramLabel = "DIR",
            defaultValue = "results",
            description = "Parent folder of the results folder (default: ${DEFAULT-VALUE}).")
    Path directory;

    @Option(
            names = {"-s", "--sample"},
            paramLabel = "SECONDS",
            defaultValue = "1",
            description = "Statistics window in seconds (default: ${DEFAULT-VALUE}; BenchBase's is 5).")
    int windowSeconds;

    @Option(
            names = {"-im", "--interval-monitor"},
            paramLabel = "MS",
            description = "Resource monitor interval in milliseconds (>= 100; overrides <monitor><interval>)."
                    + " 0, BenchBase's default, keeps the configured interval.")
    Long intervalMonitorMs;

    @Option(
            names = {"-jh", "--json-histograms"},
            paramLabel = "FILE",
            description = "Also write the per-type outcome counts as BenchBase's JSON histograms"
                    + " (completed, aborted, rejected, unexpected).")
    Path jsonHistograms;

    @Option(
            names = "--benchbase-outputs",
            arity = "0..1",
            fallbackValue = "true",
            paramLabel = "BOOL",
            description = "Also write BenchBase's result files (<bench>_<time>.summary.json, .results.csv,"
                    + " .samples.csv, .params.json, .metrics.json, .config.xml) into the results folder"
                    + " (docs/benchbase.md).")
    boolean benchbaseOutputs;

    @Option(
            names = "--benchbase-raw",
            arity = "0..1",
            fallbackValue = "true",
            paramLabel = "BOOL",
            description = "With --benchbase-outputs: also BenchBase's per-transaction .raw.csv (one row per operation:"
                    + " it grows with the run).")
    boolean benchbaseRaw;

    @Option(
            names = "--trace",
            paramLabel = "FILE",
            description = "Also write every record operation of the run, with the hash of each read's result, to"
                    + " FILE (gzip; docs/trace.md); the replay subcommand re-runs it.")
    Path trace;

    @Option(
            names = "--shard",
            paramLabel = "i/n",
            description = "Run part i of n of the phases (0 <= i < n): terminals i, i+n, ..., every n-th arrival, the"
                    + " count's share; the n drivers meet at a start barrier in the database. Merge their results"
                    + " with the merge subcommand.")
    String shard;

    @Option(
            names = "--barrier-timeout",
            paramLabel = "SECONDS",
            defaultValue = "300",
            description = "With --shard: how long to wait at the start barrier for the other shards (default:"
                    + " ${DEFAULT-VALUE}).")
    long barrierTimeoutSeconds;

    @Option(
            names = "--metrics-listen",
            paramLabel = "HOST:PORT",
            description = "Serve the run's metrics (operations, missed arrivals, response-time histograms) in the"
                    + " Prometheus/OpenMetrics text format at http://HOST:PORT/metrics while it runs (overrides"
                    + " <metrics><listen>; docs/prometheus.md).")
    String metricsListen;

    @Option(
            names = "--metrics-linger",
            paramLabel = "SECONDS",
            defaultValue = "15",
            description = "With --metrics-listen: after the run, keep serving the final values until one scrape has"
                    + " read them, at most this long (default: ${DEFAULT-VALUE}; 0: do not wait).")
    long metricsLingerSeconds;

    @Option(names = "--dialects-export", paramLabel = "BOOL", hidden = true)
    String dialectsExport;

    String[] rawArgs = new String[0];

    @Override
    public Integer call() {
        return new Invocation(options()).run();
    }

    /** The parsed options as the plain record the modes read. */
    RunOptions options() {
        return new RunOptions(
                benchmark,
                config,
                create,
                clear,
                load,
                execute,
                resume,
                shrink,
                directory,
                windowSeconds,
                intervalMonitorMs,
                jsonHistograms,
                benchbaseOutputs,
                benchbaseRaw,
                trace,
                shard,
                barrierTimeoutSeconds,
                dialectsExport,
                metricsListen,
                metricsLingerSeconds,
                Arrays.asList(rawArgs));
    }

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /** Runs the command line and returns the exit code (tests call this instead of main). */
    public static int execute(String... args) {
        Main main = new Main();
        main.rawArgs = args.clone();
        CommandLine cl = new CommandLine(main);
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.setParameterExceptionHandler((ex, a) -> {
            PrintWriter err = ex.getCommandLine().getErr();
            err.println("error: " + ex.getMessage() + " (see --help)");
            err.flush();
            return USAGE;
        });
        cl.setExecutionExceptionHandler((ex, c, parsed) -> {
            PrintWriter err = c.getErr();
            err.println("error: " + ex);
            err.flush();
            return FAILED;
        });
        return cl.execute(args);
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {
                "ivsbench " + EnvironmentWriter.toolVersion(), "Java " + System.getProperty("java.version")
            };
        }
    }
}
