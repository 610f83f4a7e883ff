package org.ivsbench.experiment;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.ivsbench.bench.BenchmarkModule;
import org.ivsbench.bench.ExperimentWorkload;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.PhaseConfig;
import org.ivsbench.db.Target;
import org.ivsbench.stats.PhaseStats;
import org.ivsbench.stats.PhaseSummary;

/**
 * An epoch's run phases in slices (experiment/slices = k): every mode's databases are built first and kept, then
 * the modes' run phases run in k slices each, the modes alternating in mirrored rounds - round 1 in the modes'
 * order, round 2 reversed, round 3 in order, ... (main, clean, clean, main, main, clean, ... for two modes) - so
 * that a change in the machine's speed during the epoch lands on every mode alike and cancels out of their ratios
 * instead of landing in them (docs/experiments.md, "Modes in slices"). Slice s of every mode replays the same
 * operation sequence (one seed per slice), so adjacent slices compare the same operations.
 *
 * <p>The paper's conditions stay: when the run phase only reads, main's first slice runs straight after the
 * extend phase, before clean's snapshot and any build (round 1 starts with main anyway). Each mode's slices add
 * up to its epochs.csv row ({@link PhaseStats#inSequence}: operations, histograms, measured seconds); each slice
 * is a run folder of its own ({@code epoch-NNN/<mode>/run-01} ...) and a row of slices.csv. The fresh modes'
 * databases (clean, the baselines) live on one server at a time: the primary's, or one fresh instance per epoch
 * (experiment/fresh's command runs once per epoch, not once per mode).
 */
final class InterleavedModes {
    /** The most slices experiment/slices takes. */
    static final int MAX_SLICES = 100;

    /** The seed of slice s >= 2 is the epoch's run seed plus this plus s (slice 1 keeps the unsliced seed). */
    static final long SLICE_SEED_OFFSET = 100;

    /** One step of the alternation: a mode's slice and the round it belongs to (both from 1). */
    record Step(Mode mode, int slice) {}

    /** One measured slice: its summary and its collector (for the mode's sum). */
    record Slice(PhaseSummary summary, PhaseStats stats) {}

    /** What the epoch loop lends: measuring a phase, the quiescence wait, the progress line. */
    interface Host {
        /** Runs one phase into {@code epoch-NNN/<mode>/<part>}; null when stopped before or while it ran. */
        Slice measure(int epoch, Mode mode, String part, BenchmarkConfig config, Target target) throws Exception;

        QuiescenceWait.Result quiet(Target target) throws InterruptedException;

        void progress(int epoch, String what, PhaseSummary s, QuiescenceWait.Result quiet);

        /** A mode's line for its slices added up, as an unsliced run phase's (scripts read it), counting no phase. */
        void total(int epoch, Mode mode, PhaseSummary s, QuiescenceWait.Result quiet);
    }

    /** A fresh mode's database as built for its run phase: the phase's config and the sizes its row reports. */
    record FreshBuild(FreshDatabases.Built built, BenchmarkConfig phaseConfig, ValueSizeStats rowSizes) {}

    private InterleavedModes() {}

    /**
     * The order of the slices of {@code modes} (in their canonical order): round r in that order when r is odd,
     * reversed when even. With {@code firstDone}, the first step (main's slice 1, run straight after the extends)
     * is left out.
     */
    static List<Step> order(List<Mode> modes, int slices, boolean firstDone) {
        List<Step> steps = new ArrayList<>();
        for (int round = 1; round <= slices; round++) {
            List<Mode> r = new ArrayList<>(modes);
            if (round % 2 == 0) {
                java.util.Collections.reverse(r);
            }
            for (Mode m : r) {
                steps.add(new Step(m, round));
            }
        }
        if (firstDone && !steps.isEmpty()) {
            steps.remove(0);
        }
        return steps;
    }

    /** The folder name of slice {@code slice} of a run phase in {@code slices} slices ({@code run} when whole). */
    static String part(int slice, int slices) {
        return slices == 1 ? EpochLoop.RUN : String.format("%s-%02d", EpochLoop.RUN, slice);
    }

    /**
     * Slice {@code slice} (from 1) of {@code slices} of the run phase built by {@code workload} with the epoch's
     * run seed {@code base}: its share of the operations (the first count % slices slices one more) or of the
     * seconds of a timed phase, and a seed of its own, the same for every mode.
     */
    static BenchmarkConfig slice(
            ExperimentWorkload workload, BenchmarkConfig config, long warmupSeconds, long base, int slice, int slices) {
        if (slices == 1) {
            return workload.runPhase(config, warmupSeconds, base);
        }
        long seed = slice == 1 ? base : base + SLICE_SEED_OFFSET + slice;
        BenchmarkConfig c = workload.runPhase(config, warmupSeconds, seed);
        PhaseConfig p = c.phases().get(0);
        PhaseConfig.Builder b = p.toBuilder();
        if (p.count() > 0) {
            b.count(share(p.count(), slice, slices));
        } else {
            b.timeSeconds(share(p.timeSeconds(), slice, slices));
        }
        return c.withPhases(List.of(b.build()));
    }

    /** Slice {@code slice}'s share of {@code total} units in {@code slices} slices: the shares add up to it. */
    static long share(long total, int slice, int slices) {
        return total / slices + (slice <= total % slices ? 1 : 0);
    }

    /**
     * Builds a fresh mode's database on {@code server}: clean restores {@code snapshot}, the baselines load their
     * data set at {@code volume}.
     */
    static FreshBuild build(
            Mode mode,
            BenchmarkModule module,
            ExperimentWorkload workload,
            BenchmarkConfig runConfig,
            ValueSizeStats sizes,
            BaselineVolume volume,
            CleanSnapshot snapshot,
            Target server,
            FreshServer freshServer)
            throws Exception {
        switch (mode) {
            case CLEAN -> {
                return new FreshBuild(snapshot.restore(server, freshServer.config()), runConfig, sizes);
            }
            case AVERAGE_BASELINE, SPREAD_BASELINE -> {
                ExperimentWorkload.BaselineData data = baseline(mode, workload, runConfig, volume);
                FreshDatabases.Built b = FreshDatabases.baseline(
                        data.config(),
                        server,
                        mode == Mode.AVERAGE_BASELINE ? FreshDatabases.AVERAGE : FreshDatabases.SPREAD,
                        module.name());
                return new FreshBuild(
                        b,
                        data.config(),
                        ValueSizeStats.uniform(data.records(), data.valuesPerRecord(), data.valueBytes()));
            }
            default -> throw new IllegalStateException(mode.toString());
        }
    }

    /** The run-phase config of fresh mode {@code m}: a baseline's data set's (the records it was loaded with). */
    private static BenchmarkConfig onFresh(
            Mode m, ExperimentWorkload workload, BenchmarkConfig run, BaselineVolume volume) {
        return m == Mode.AVERAGE_BASELINE || m == Mode.SPREAD_BASELINE
                ? baseline(m, workload, run, volume).config()
                : run;
    }

    /** A baseline mode's data set at {@code volume}, with {@code run}'s run phase. */
    private static ExperimentWorkload.BaselineData baseline(
            Mode mode, ExperimentWorkload workload, BenchmarkConfig run, BaselineVolume volume) {
        return mode == Mode.AVERAGE_BASELINE
                ? workload.averageBaseline(run, volume.records(), volume.averageValueBytes())
                : workload.spreadBaseline(run, volume.records(), volume.totalBytes());
    }

    /** What {@link #run} needs of the epoch. */
    record Epoch(
            int epoch,
            long base,
            PhaseSummary extend,
            ValueSizeStats sizes,
            BaselineVolume volume,
            CleanSnapshot snapshot,
            Slice mainFirst,
            QuiescenceWait.Result mainQuiet) {}

    /**
     * Runs the epoch's slices after main's first (when {@code e.mainFirst()} holds it) and writes each mode's
     * epochs.csv row; false when stopped. Every fresh database is dropped and the server released in any case.
     */
    static boolean run(
            Epoch e,
            ExperimentSpec spec,
            BenchmarkModule module,
            BenchmarkConfig config,
            Target primary,
            FreshServer freshServer,
            FreshServer copies,
            java.io.PrintStream out,
            ExperimentListener listener,
            EpochsCsv csv,
            Host host)
            throws Exception {
        ExperimentWorkload workload = spec.workload();
        String table = workload.dataTable();
        int k = spec.slices();
        List<Mode> fresh = spec.modes().stream()
                .filter(m -> m != Mode.MAIN && m != Mode.MAINTAINED)
                .toList();
        MaintainedCopy.Ready copy = null;
        Map<Mode, FreshBuild> builds = new EnumMap<>(Mode.class);
        Map<Mode, Target> targets = new EnumMap<>(Mode.class);
        Map<Mode, QuiescenceWait.Result> quiets = new EnumMap<>(Mode.class);
        Map<Mode, List<Slice>> done = new EnumMap<>(Mode.class);
        Target server = fresh.isEmpty() ? null : freshServer.acquire(fresh.get(0), e.epoch(), table);
        try {
            BenchmarkConfig whole = workload.runPhase(config, spec.warmupSeconds(), e.base());
            for (Mode m : fresh) {
                FreshBuild b =
                        build(m, module, workload, whole, e.sizes(), e.volume(), e.snapshot(), server, freshServer);
                builds.put(m, b);
                targets.put(m, b.built().target());
            }
            if (spec.modes().contains(Mode.MAIN)) {
                targets.put(Mode.MAIN, primary);
                if (e.mainFirst() != null) {
                    done.computeIfAbsent(Mode.MAIN, x -> new ArrayList<>()).add(e.mainFirst());
                    quiets.put(Mode.MAIN, e.mainQuiet());
                } else {
                    listener.beforeMainRun(e.epoch(), primary);
                    quiets.put(Mode.MAIN, host.quiet(primary));
                }
            }
            if (spec.modes().contains(Mode.MAINTAINED)) {
                copy = MaintainedCopy.prepare(e.epoch(), copies, table, csv, out);
                targets.put(Mode.MAINTAINED, copy.server());
            }
            for (Mode m : spec.modes()) {
                if (m != Mode.MAIN) {
                    listener.freshReady(e.epoch(), m, targets.get(m), table);
                    quiets.put(m, host.quiet(targets.get(m)));
                }
            }
            for (Step step : order(spec.modes(), k, e.mainFirst() != null)) {
                Mode m = step.mode();
                BenchmarkConfig c = slice(workload, config, spec.warmupSeconds(), e.base(), step.slice(), k);
                if (m == Mode.MAINTAINED) {
                    c = c.withTarget(copies.config());
                    c = c.withMonitor(c.monitor().forFreshInstance());
                } else if (m != Mode.MAIN) {
                    // A baseline runs the slice on its data set's config, as the whole phase does; the phase's
                    // config names the server it runs on, so its monitor samples that server.
                    c = onFresh(m, workload, c, e.volume()).withTarget(freshServer.config());
                    c = c.withMonitor(c.monitor().forFreshInstance());
                }
                Slice s = host.measure(e.epoch(), m, part(step.slice(), k), c, targets.get(m));
                if (s == null) {
                    return false;
                }
                csv.sliceRow(e.epoch(), step.slice(), m, s.summary());
                host.progress(e.epoch(), m.label() + " slice " + step.slice() + "/" + k, s.summary(), null);
                done.computeIfAbsent(m, x -> new ArrayList<>()).add(s);
            }
            for (Mode m : spec.modes()) {
                if (m != Mode.MAIN) {
                    listener.beforeDrop(e.epoch(), m, targets.get(m), table);
                }
            }
            Map<Mode, PhaseStats> sums = new LinkedHashMap<>();
            for (Mode m : spec.modes()) {
                sums.put(
                        m,
                        PhaseStats.inSequence(
                                done.get(m).stream().map(Slice::stats).toList()));
            }
            for (Mode m : spec.modes()) {
                PhaseStats sum = sums.get(m);
                host.total(e.epoch(), m, sum.summary(), quiets.get(m));
                csv.sizeLatencyRows(e.epoch(), m, EpochLoop.RUN, sum.latencyBySize());
                if (m == Mode.MAIN) {
                    csv.epochRow(e.epoch(), m, e.sizes(), e.extend(), sum.summary(), null, null, quiets.get(m));
                } else if (m == Mode.MAINTAINED) {
                    csv.epochRow(
                            e.epoch(),
                            m,
                            e.sizes(),
                            null,
                            sum.summary(),
                            copy.copyMs(),
                            copy.maintenance().millis(),
                            quiets.get(m));
                } else {
                    FreshBuild b = builds.get(m);
                    csv.epochRow(
                            e.epoch(),
                            m,
                            b.rowSizes(),
                            null,
                            sum.summary(),
                            b.built().snapshotMs(),
                            b.built().restoreMs(),
                            quiets.get(m));
                }
            }
            return true;
        } finally {
            for (FreshBuild b : builds.values()) {
                FreshDatabases.drop(server, b.built());
            }
            if (server != null) {
                freshServer.release(server);
            }
            if (copy != null) {
                copies.release(copy.server());
            }
        }
    }
}
