package org.ivsbench.experiment;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.ivsbench.bench.BenchmarkModule;
import org.ivsbench.bench.BenchmarkRegistry;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.engine.Clock;
import org.ivsbench.engine.EngineOptions;
import org.ivsbench.engine.WorkloadManager;
import org.ivsbench.monitor.RunMonitor;
import org.ivsbench.stats.PhaseSummary;
import org.ivsbench.stats.RunInfo;
import org.ivsbench.stats.StatsCollector;
import org.ivsbench.target.Target;

/**
 * Runs one experiment phase with statistics (samples.csv, latency.hlog, summary.json) and the resource
 * monitor (monitor.csv) into its own folder. Each phase gets a new module instance, so per-run state (key
 * generators sized by recordcount) follows the phase's config. {@link #stop()} ends the current phase early.
 */
final class PhaseExecutor {
    private final String benchmark;
    private final String toolVersion;
    private final Map<String, Object> database;
    private final String digest;
    private final int windowSeconds;
    private volatile WorkloadManager current;
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
        try (StatsCollector collector = new StatsCollector(dir, info)) {
            WorkloadManager manager = new WorkloadManager(config.phases(), config.transactionTypes(),
                    config.terminals(), config.randomSeed(), collector, Clock.SYSTEM, EngineOptions.defaults());
            current = manager;
            if (stopped) {
                manager.requestStop();
            }
            RunMonitor monitor = RunMonitor.start(config, target, dir, manager::currentPhaseIndex);
            Exception failure = null;
            try {
                manager.run((id, random) -> module.newTerminal(config, target, id, random));
            } catch (Exception e) {
                failure = e;
            } finally {
                current = null;
                collector.finish(manager.stopRequested() || failure != null);
                monitor.close();
            }
            if (failure != null) {
                throw failure;
            }
            if (manager.stopRequested()) {
                stopped = true;
            }
            return collector.summaries().isEmpty() ? null : collector.summaries().get(0);
        }
    }

    void stop() {
        stopped = true;
        WorkloadManager m = current;
        if (m != null) {
            m.requestStop();
        }
    }

    boolean stopped() {
        return stopped;
    }
}
