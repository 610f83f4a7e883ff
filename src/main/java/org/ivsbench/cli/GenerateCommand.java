package org.ivsbench.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import org.ivsbench.bench.BenchmarkModule;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.ConfigException;
import org.ivsbench.config.ConfigRedactor;
import org.ivsbench.mode.GenerateRun;
import org.ivsbench.mode.UsageException;

/**
 * {@code java -jar benchbase.jar generate -b ycsbivs -c CONFIG.xml -o FILE}: writes the operations the config's
 * terminals would issue to a trace file that {@code replay} runs, without a database (docs/trace.md, "Generate").
 */
@Command(
        name = "generate",
        mixinStandardHelpOptions = true,
        usageHelpAutoWidth = true,
        sortOptions = false,
        description = "Write the operation stream of a config's count phases to a trace file (the format replay"
                + " reads; its reads carry no result digest), at full speed and without a database.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:written", "1:writing failed (no file is left)", "2:bad option or config"})
final class GenerateCommand implements Callable<Integer> {
    @Option(
            names = {"-b", "--bench"},
            required = true,
            paramLabel = "NAME",
            description = "Benchmark: ycsbivs, or ycsb (BenchBase's YCSB).")
    String benchmark;

    @Option(
            names = {"-c", "--config"},
            required = true,
            paramLabel = "FILE",
            description = "Benchmark configuration XML; its <type> only names the kind (nothing is connected).")
    Path config;

    @Option(
            names = {"-o", "--output"},
            required = true,
            paramLabel = "FILE",
            description = "The trace file (gzip); it appears only when complete. A device such as /dev/null is"
                    + " written directly.")
    Path output;

    @Option(
            names = "--count",
            paramLabel = "N",
            defaultValue = "0",
            description = "Operations of every phase, replacing its <count> or <time> (default 0: the phases' own"
                    + " counts; a time phase is then an error).")
    long count;

    private final PrintStream out = System.out;
    private final PrintStream err = System.err;

    @Override
    public Integer call() {
        BenchmarkModule module;
        BenchmarkConfig cfg;
        String redacted;
        try {
            if (count < 0) {
                throw new UsageException("--count: '" + count + "' must be 1 or more (0: the phases' own counts)");
            }
            module = CommandSetup.module("-b", benchmark);
            CommandSetup.checkConfigFile("-c:", config);
            GenerateRun.checkOutput(output);
            cfg = CommandSetup.loadConfig(module, config);
            if (cfg.experiment() != null || cfg.sweep() != null) {
                throw new UsageException(
                        "-c: '" + config + "' has an <" + (cfg.experiment() != null ? "experiment" : "sweep")
                                + ">: only a config's phases can be generated");
            }
            cfg = cfg.withPhases(GenerateRun.phases(cfg, count));
            redacted = ConfigRedactor.redactedXml(config);
        } catch (UsageException e) {
            err.println("error: " + e.getMessage());
            return Main.USAGE;
        } catch (ConfigException e) {
            err.println("error: " + CommandSetup.configError(config, e));
            return Main.USAGE;
        }
        return new GenerateRun(out, err).run(module, cfg, redacted, new GenerateRun.Options(output, count));
    }
}
