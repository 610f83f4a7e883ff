package org.ivsbench.experiment;

import java.io.PrintStream;
import java.util.function.BooleanSupplier;

import org.ivsbench.bench.BenchmarkModule;
import org.ivsbench.bench.ExperimentWorkload;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.db.Target;
import org.ivsbench.run.LiveMetrics;
import org.ivsbench.stats.PhaseSummary;

/**
 * An epoch's run phases whole (experiment/slices = 1, the paper's design): each mode in turn, its run phase in one
 * piece - main on the primary, clean and the baselines each on a fresh database built for it ({@link FreshServer},
 * {@link FreshDatabases}), main-maintained on a reorganized copy of the primary ({@link MaintainedCopy}) - with the
 * quiescence wait before it and its epochs.csv row after it. {@link InterleavedModes} is the same epoch in slices;
 * both measure through the epoch loop's {@link InterleavedModes.Host}.
 */
final class WholeModes {
    /** What one epoch's modes share: the experiment, its servers and outputs, the loop's measuring. */
    record Context(
            ExperimentSpec spec,
            BenchmarkModule module,
            Target primary,
            FreshServer freshServer,
            FreshServer copies,
            PrintStream out,
            ExperimentListener listener,
            LiveMetrics metrics,
            EpochsCsv csv,
            InterleavedModes.Host host) {
        ExperimentWorkload workload() {
            return spec.workload();
        }
    }

    /** A run phase's summary (null when stopped) and the quiescence wait before it (null when disabled). */
    private record Measured(PhaseSummary summary, QuiescenceWait.Result quiet) {}

    private WholeModes() {}

    /**
     * The run phases of epoch {@code epoch} with run config {@code runConfig}, one mode after the other in the
     * experiment's order (main left out when {@code mainDone}: it already ran straight after the extends); false
     * when stopped.
     */
    static boolean run(
            Context c,
            int epoch,
            BenchmarkConfig runConfig,
            PhaseSummary extend,
            ValueSizeStats sizes,
            BaselineVolume volume,
            CleanSnapshot snapshot,
            boolean mainDone,
            BooleanSupplier stopped)
            throws Exception {
        for (Mode mode : c.spec().modes()) {
            if (mode == Mode.MAIN && mainDone) {
                continue;
            }
            c.metrics().epoch(epoch, mode.label());
            Measured run;
            switch (mode) {
                case MAIN -> {
                    c.listener().beforeMainRun(epoch, c.primary());
                    QuiescenceWait.Result quiet = c.host().quiet(c.primary());
                    run = new Measured(phase(c, epoch, mode, runConfig, c.primary()), quiet);
                    if (run.summary() != null) {
                        c.csv().epochRow(epoch, mode, sizes, extend, run.summary(), null, null, quiet);
                    }
                }
                case CLEAN, AVERAGE_BASELINE, SPREAD_BASELINE ->
                    run = freshMode(c, epoch, mode, runConfig, sizes, volume, snapshot);
                case MAINTAINED -> run = maintainedMode(c, epoch, runConfig, sizes);
                default -> throw new IllegalStateException(mode.toString());
            }
            if (run.summary() == null || stopped.getAsBoolean()) {
                return false;
            }
            c.host().progress(epoch, mode.label(), run.summary(), run.quiet());
        }
        return true;
    }

    /**
     * Runs {@code phaseConfig}'s single phase against {@code target} into {@code epoch-NNN/<mode>/<part>} and adds
     * its latency by size to the experiment's; null when stopped before it started or while it ran.
     */
    static PhaseSummary phase(
            InterleavedModes.Host host,
            EpochsCsv csv,
            int epoch,
            Mode mode,
            String part,
            BenchmarkConfig phaseConfig,
            Target target)
            throws Exception {
        InterleavedModes.Slice s = host.measure(epoch, mode, part, phaseConfig, target);
        if (s == null) {
            return null;
        }
        csv.sizeLatencyRows(epoch, mode, part, s.stats().latencyBySize());
        return s.summary();
    }

    private static PhaseSummary phase(Context c, int epoch, Mode mode, BenchmarkConfig phaseConfig, Target target)
            throws Exception {
        return phase(c.host(), c.csv(), epoch, mode, EpochLoop.RUN, phaseConfig, target);
    }

    /**
     * main-maintained: a physical copy of the primary, reorganized ({@link MaintainedCopy}), then its run phase and
     * epochs.csv row (snapshot_ms the copy, restore_ms the reorganization); the copy's connections closed in any case.
     */
    private static Measured maintainedMode(Context c, int epoch, BenchmarkConfig runConfig, ValueSizeStats sizes)
            throws Exception {
        String table = c.workload().dataTable();
        MaintainedCopy.Ready ready = MaintainedCopy.prepare(epoch, c.copies(), table, c.csv(), c.out());
        try {
            c.listener().freshReady(epoch, Mode.MAINTAINED, ready.server(), table);
            QuiescenceWait.Result quiet = c.host().quiet(ready.server());
            BenchmarkConfig on = runConfig
                    .withTarget(c.copies().config())
                    .withMonitor(runConfig.monitor().forFreshInstance());
            PhaseSummary run = phase(c, epoch, Mode.MAINTAINED, on, ready.server());
            c.listener().beforeDrop(epoch, Mode.MAINTAINED, ready.server(), table);
            if (run != null) {
                c.csv()
                        .epochRow(
                                epoch,
                                Mode.MAINTAINED,
                                sizes,
                                null,
                                run,
                                ready.copyMs(),
                                ready.maintenance().millis(),
                                quiet);
            }
            return new Measured(run, quiet);
        } finally {
            c.copies().release(ready.server());
        }
    }

    /**
     * One fresh-database mode: a server from {@link FreshServer}, the mode's database built there, the
     * quiescence wait, its run phase, its epochs.csv row; the database is dropped and an instance's connections
     * closed in any case.
     */
    private static Measured freshMode(
            Context c,
            int epoch,
            Mode mode,
            BenchmarkConfig runConfig,
            ValueSizeStats sizes,
            BaselineVolume volume,
            CleanSnapshot snapshot)
            throws Exception {
        String table = c.workload().dataTable();
        FreshServer freshServer = c.freshServer();
        Target server = freshServer.acquire(mode, epoch, table);
        try {
            InterleavedModes.FreshBuild fb = InterleavedModes.build(
                    mode, c.module(), c.workload(), runConfig, sizes, volume, snapshot, server, freshServer);
            BenchmarkConfig phaseConfig = fb.phaseConfig();
            FreshDatabases.Built b = fb.built();
            PhaseSummary run;
            QuiescenceWait.Result quiet;
            try {
                c.listener().freshReady(epoch, mode, b.target(), table);
                quiet = c.host().quiet(b.target());
                // The phase's config names the server it runs on, so its monitor samples that server's process
                // (not the primary's pid file or exporters).
                BenchmarkConfig onInstance = phaseConfig
                        .withTarget(freshServer.config())
                        .withMonitor(phaseConfig.monitor().forFreshInstance());
                run = phase(c, epoch, mode, onInstance, b.target());
                c.listener().beforeDrop(epoch, mode, b.target(), table);
            } finally {
                FreshDatabases.drop(server, b);
            }
            if (run != null) {
                c.csv().epochRow(epoch, mode, fb.rowSizes(), null, run, b.snapshotMs(), b.restoreMs(), quiet);
            }
            return new Measured(run, quiet);
        } finally {
            freshServer.release(server);
        }
    }
}
