package org.ivsbench.experiment;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.ivsbench.bench.BenchmarkModule;
import org.ivsbench.bench.BenchmarkRegistry;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.stats.PhaseSummary;
import org.ivsbench.stats.RunInfo;
import org.ivsbench.db.Target;

/**
 * Runs one experiment phase as a {@link MeasuredRun} (samples.csv, latency.hlog, summary.json, monitor.csv) into
 * its own folder. Each phase gets a new module instance, so per-run state (key
 * generators sized by recordcount) follows the phase's config. {@link #stop()} ends the current phase early.
 */
final class PhaseExecutor {
    private final String benchmark;
    private final String toolVersion;
    private final Map<String, Object> database;
    private final String digest;
    private final int windowSeconds;
    private volatile MeasuredRun current;
    private volatile boolean stopped;

    PhaseExecutor(String benchmark, String toolVersion, Map<String, Object> database, String digest,
            int windowSeconds) {
        this.benchmark = benchmark;
        this.toolVersion = toolVersion;
        this.database = database;
        this.digest = digest;
        this.windowSeconds = windowSeconds;
    }

    /** Runs the config's single phase against {@code target}; null when stopped before it started. */
    PhaseSummary run(BenchmarkConfig config, Target target, Path dir) throws Exception {
        if (stopped) {
            return null;
        }
        Files.createDirectories(dir);
        BenchmarkModule module = BenchmarkRegistry.create(benchmark).orElseThrow();
        RunInfo info = new RunInfo(toolVersion, benchmark, database, digest, config.randomSeed(), config.terminals(),
                windowSeconds, config.phases());
        try (MeasuredRun run = new MeasuredRun(module, config, target, dir, info)) {
            current = run;
            if (stopped) {
                run.requestStop();
            }
            Exception failure;
            try {
                failure = run.execute();
            } finally {
                current = null;
            }
            if (failure != null) {
                throw failure;
            }
            if (run.stopRequested()) {
                stopped = true;
            }
            return run.summaries().isEmpty() ? null : run.summaries().get(0);
        }
    }

    void stop() {
        stopped = true;
        MeasuredRun m = current;
        if (m != null) {
            m.requestStop();
        }
    }

    boolean stopped() {
        return stopped;
    }
}
