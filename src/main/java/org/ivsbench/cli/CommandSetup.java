package org.ivsbench.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

import org.ivsbench.bench.BenchmarkModule;
import org.ivsbench.bench.BenchmarkRegistry;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.ConfigException;
import org.ivsbench.config.ConfigLoader;
import org.ivsbench.config.Shrink;
import org.ivsbench.db.TargetKinds;
import org.ivsbench.experiment.ExperimentSpec;
import org.ivsbench.mode.UsageException;
import org.ivsbench.run.RunLifecycle;
import org.ivsbench.stats.ResultsDirectory;

/**
 * The checks and steps that the run (Invocation), tenants and replay commands share before they touch a database,
 * so that the three word the same bad input the same way. {@code who} prefixes a message with what the user gave:
 * an option ({@code -b}, {@code -c}) or a tenant.
 */
final class CommandSetup {
    static final int MIN_WINDOW_SECONDS = 1;
    static final int MAX_WINDOW_SECONDS = 3600;

    private CommandSetup() {}

    /** The benchmark called {@code name}; unknown, the message lists the known ones. */
    static BenchmarkModule module(String who, String name) throws UsageException {
        return BenchmarkRegistry.create(name)
                .orElseThrow(() -> new UsageException(who + ": unknown benchmark '" + name + "' (known: "
                        + String.join(", ", BenchmarkRegistry.names()) + ")"));
    }

    /** A config file must be a readable regular file; {@code what} names it, e.g. {@code "-c:"}. */
    static void checkConfigFile(String what, Path file) throws UsageException {
        if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
            throw new UsageException(what + " '" + file + "' "
                    + (Files.isDirectory(file)
                            ? "is a directory"
                            : Files.exists(file) ? "is not readable" : "does not exist"));
        }
    }

    /** Loads {@code file} for {@code module} (its transaction types and parameters) and validates it. */
    static BenchmarkConfig loadConfig(BenchmarkModule module, Path file) throws ConfigException {
        BenchmarkConfig config = ConfigLoader.load(
                file,
                module.name(),
                module.supportedTransactionTypes(),
                module.parameterNames(),
                module.phaseParameterNames(),
                TargetKinds::resolve);
        module.validate(config);
        return config;
    }

    /**
     * {@code --shrink}: {@code config} at the small size of {@link Shrink} (the benchmark and the experiment declare
     * their own size settings), validated again; prints the one line that says what changed, prefixed by
     * {@code who} (empty for the main command, "tenant NAME: " for a tenant).
     */
    static BenchmarkConfig shrink(BenchmarkModule module, BenchmarkConfig config, String who, PrintStream out)
            throws ConfigException {
        BenchmarkConfig shrunk = Shrink.apply(
                ExperimentSpec.withSizedDefaults(config), module.shrinkCaps(), ExperimentSpec.shrinkCaps(module));
        module.validate(shrunk);
        out.println(Shrink.describe(who, shrunk));
        return shrunk;
    }

    /** A config error's line: the file's path first unless the loader's message already names the file. */
    static String configError(Path file, ConfigException e) {
        String name = file.getFileName().toString();
        return (e.getMessage().contains(name) ? "" : file + ": ") + e.getMessage();
    }

    /** -s: the statistics window in seconds. */
    static void checkWindow(int seconds) throws UsageException {
        if (seconds < MIN_WINDOW_SECONDS || seconds > MAX_WINDOW_SECONDS) {
            throw new UsageException("-s: '" + seconds + "' must be between " + MIN_WINDOW_SECONDS + " and "
                    + MAX_WINDOW_SECONDS + " seconds");
        }
    }

    /** -d: results go below {@code directory}; checked before any database is touched. */
    static void checkResultsFolder(Path directory) throws UsageException {
        try {
            ResultsDirectory.checkWritable(directory);
        } catch (IOException e) {
            throw new UsageException("-d " + directory + ": " + e.getMessage());
        }
    }

    /** What a command does when it is interrupted: keep the flag, say so, exit 130. */
    static int interrupted(PrintStream err) {
        return RunLifecycle.interrupted(err);
    }
}
