package org.ivsbench.run;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import org.ivsbench.bench.BenchmarkModule;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.db.Target;
import org.ivsbench.engine.Clock;
import org.ivsbench.engine.WorkloadManager;
import org.ivsbench.monitor.ActivityWatch;
import org.ivsbench.monitor.RunMonitor;
import org.ivsbench.stats.OperationListener;
import org.ivsbench.stats.PhaseSummary;
import org.ivsbench.stats.RunInfo;
import org.ivsbench.stats.StatsCollector;

/**
 * One measured run of a config's phases against a target, into one results folder: the statistics
 * (samples.csv, latency.hlog, summary.json), the engine, the resource monitor (monitor.csv) and the step watch
 * (activity.jsonl), wired the same way for the phases, sweep and tenants modes (org.ivsbench.mode) and for every experiment phase
 * (experiment.EpochLoop). Whatever ends the
 * run (its end, a failure, {@link #requestStop()}), {@link #execute()} finishes the summary and closes the monitor.
 */
public final class MeasuredRun implements AutoCloseable {
    private final BenchmarkModule module;
    private final BenchmarkConfig config;
    private final Target target;
    private final Path dir;
    private final StatsCollector collector;
    private final WorkloadManager manager;

    public MeasuredRun(BenchmarkModule module, BenchmarkConfig config, Target target, Path dir, RunInfo info)
            throws IOException {
        this(module, config, target, dir, info, OperationListener.NONE);
    }

    /** A run whose operations are also reported to {@code listener} as they are recorded (the metrics endpoint). */
    public MeasuredRun(
            BenchmarkModule module,
            BenchmarkConfig config,
            Target target,
            Path dir,
            RunInfo info,
            OperationListener listener)
            throws IOException {
        this.module = module;
        this.config = config;
        this.target = target;
        this.dir = dir;
        this.collector = new StatsCollector(dir, info);
        collector.setOperationListener(listener);
        this.manager = new WorkloadManager(
                config.phases(),
                config.transactionTypes(),
                config.terminals(),
                config.randomSeed(),
                collector,
                Clock.SYSTEM,
                config.shard());
    }

    /** The statistics (for facts a caller adds to summary.json). */
    public StatsCollector collector() {
        return collector;
    }

    /** The engine (for live progress). */
    public WorkloadManager manager() {
        return manager;
    }

    /** Ends the run early (signal, experiment stop); what was measured is kept. Safe from any thread. */
    public void requestStop() {
        manager.requestStop();
    }

    public boolean stopRequested() {
        return manager.stopRequested();
    }

    /**
     * Runs every phase. The summary is finished (interrupted when stopped or failed) and the monitor closed
     * however the run ends; returns the failure that ended it, or null.
     */
    public Exception execute() throws IOException {
        RunMonitor monitor = RunMonitor.start(config, target, dir, manager::currentPhaseIndex);
        // Which server process the proc.* columns measure (an experiment's fresh instance, not its primary).
        monitor.serverPid().ifPresent(pid -> collector.putRunFact("serverPid", pid));
        // The step snapshot queries the server (process list, lock waits): part of the monitor's work, so a run
        // with the monitor off sends the server nothing but its operations.
        ActivityWatch activity =
                config.monitor().enabled() ? new ActivityWatch(target, dir, ActivityWatch.MIN_INTERVAL_MS) : null;
        if (activity != null) {
            collector.setWindowListener(activity);
        }
        Exception failure = null;
        try {
            manager.run(id -> module.newTerminal(config, target, id));
        } catch (Exception e) {
            failure = e;
        } finally {
            collector.finish(manager.stopRequested() || failure != null);
            if (activity != null) {
                activity.close();
            }
            monitor.close();
        }
        return failure;
    }

    public List<PhaseSummary> summaries() {
        return collector.summaries();
    }

    @Override
    public void close() throws IOException {
        collector.close();
    }
}
