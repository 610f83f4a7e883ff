package org.ivsbench.run;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.ivsbench.bench.BenchmarkModule;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.ConfigDigest;
import org.ivsbench.config.PhaseConfig;
import org.ivsbench.db.ServerInfo;
import org.ivsbench.db.Target;
import org.ivsbench.stats.EnvironmentWriter;
import org.ivsbench.stats.OperationListener;
import org.ivsbench.stats.ResultsDirectory;
import org.ivsbench.stats.RunInfo;

/**
 * A results folder as every run mode prepares it (docs/results-format.md): the redacted config.xml, environment.json
 * (the server's facts, the command line, what --shrink changed) and the {@link RunInfo} its summary.json carries.
 * The phases, sweep, tenants and experiment modes differ only in where their folders go and how many they make.
 */
public final class RunFolder {
    private final List<String> commandLine;
    private final int windowSeconds;
    private final LiveMetrics metrics;

    /** The facts every folder of one invocation shares: its command line and statistics window. */
    public RunFolder(List<String> commandLine, int windowSeconds) {
        this(commandLine, windowSeconds, LiveMetrics.NONE);
    }

    /** ... and the live metrics its measured runs report to (--metrics-listen). */
    public RunFolder(List<String> commandLine, int windowSeconds, LiveMetrics metrics) {
        this.commandLine = List.copyOf(commandLine);
        this.windowSeconds = windowSeconds;
        this.metrics = metrics;
    }

    /** The invocation's live metrics ({@link LiveMetrics#NONE} without --metrics-listen). */
    public LiveMetrics metrics() {
        return metrics;
    }

    /**
     * What a measured run into {@code dir} reports its operations to: the live metrics, which name the run by its
     * folder's path below {@code root}'s parent ({@code root} the invocation's top results folder).
     */
    public OperationListener listener(Path root, Path dir, RunInfo info) {
        Path parent = root.toAbsolutePath().getParent();
        Path abs = dir.toAbsolutePath();
        String id = parent == null ? abs.toString() : parent.relativize(abs).toString();
        return metrics.run(id.replace('\\', '/'), info);
    }

    /** Makes {@code <parent>/<prefix>_<yyyy-MM-dd_HH-mm-ss>/} (see {@link ResultsDirectory#create}). */
    public static Path create(Path parent, String prefix) throws IOException {
        return ResultsDirectory.create(parent, prefix);
    }

    /**
     * The config digest of summary.json: over the redacted text, because a digest of the original bytes beside the
     * redacted copy would let anyone test guesses of a weak password.
     */
    public static String digest(String redactedXml) {
        return ConfigDigest.sha256(redactedXml.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Writes config.xml ({@code redactedXml}; none when null) and environment.json into {@code dir}; returns the
     * server's facts that environment.json holds.
     */
    public Map<String, Object> write(Path dir, String redactedXml, Target target, BenchmarkConfig config)
            throws IOException {
        if (redactedXml != null) {
            Files.writeString(dir.resolve("config.xml"), redactedXml);
        }
        Map<String, Object> env = ServerInfo.environmentOf(target);
        EnvironmentWriter.write(
                dir.resolve("environment.json"), env, EnvironmentWriter.toolVersion(), commandLine, config.shrunk());
        return env;
    }

    /**
     * Prepares {@code dir} for one measured run of {@code config} ({@link #write}) and returns its RunInfo, with
     * the digest of {@code redactedXml}.
     */
    public RunInfo prepare(Path dir, String redactedXml, BenchmarkModule module, BenchmarkConfig config, Target target)
            throws IOException {
        Map<String, Object> env = write(dir, redactedXml, target, config);
        return info(module, database(module, config, env), digest(redactedXml), config);
    }

    /** summary.json's {@code database} block for {@code module}'s run of {@code config} on a server. */
    public static Map<String, Object> database(
            BenchmarkModule module, BenchmarkConfig config, Map<String, Object> environment) {
        return RunInfo.databaseBlock(config, module.tableEngine(config), environment);
    }

    /**
     * The RunInfo of a run of {@code config} by {@code module}: this driver's terminals and phases (its share of
     * them under {@code --shard}), the config's seed, the invocation's window.
     */
    public RunInfo info(BenchmarkModule module, Map<String, Object> database, String digest, BenchmarkConfig config) {
        List<PhaseConfig> phases =
                config.phases().stream().map(config.shard()::view).toList();
        return new RunInfo(
                EnvironmentWriter.toolVersion(),
                module.name(),
                database,
                digest,
                config.randomSeed(),
                (int) config.shard().share(config.terminals()),
                windowSeconds,
                phases);
    }
}
