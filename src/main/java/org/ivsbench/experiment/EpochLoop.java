package org.ivsbench.experiment;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

import org.ivsbench.bench.BenchmarkModule;
import org.ivsbench.bench.BenchmarkRegistry;
import org.ivsbench.bench.ExperimentWorkload;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.db.Target;
import org.ivsbench.run.MeasuredRun;
import org.ivsbench.run.RunFolder;
import org.ivsbench.run.RunLifecycle;
import org.ivsbench.run.Stopping;
import org.ivsbench.stats.PhaseSummary;
import org.ivsbench.stats.RunInfo;

/**
 * The epochs of one invocation of an experiment: per epoch the extend phase on the primary, main's run phase
 * (before the value-size pass and clean's snapshot ({@link CleanSnapshot}) when it only reads, after them when
 * it writes), then the other modes' run phases - whole, one mode after the other ({@link WholeModes}), or in
 * slices, the modes alternating ({@link InterleavedModes}); clean, average-baseline and spread-baseline run on
 * fresh databases ({@link FreshServer}, {@link FreshDatabases}). A baselines-only experiment with computed volumes
 * runs no extend phase: only the baselines, at the volume {@link BaselineVolume#computed} gives each epoch. Before
 * every measured run phase, whatever the mode, the {@link QuiescenceWait} lets the server digest what came before
 * (main's extends, a fresh database's build); its length goes to epochs.csv and the progress line, whose time left
 * {@link EpochProgress} estimates. Every phase is its own {@link MeasuredRun} in its own folder, with a new module
 * instance, so per-run state (key generators sized by the record count) follows the phase's config. {@link #stop()}
 * ends the current phase early and starts no other.
 */
final class EpochLoop implements RunLifecycle.Work {
    /** The phases of an epoch: the folder names under the mode's, and latency_by_size.csv's {@code phase}. */
    static final String EXTEND = "extend";

    static final String RUN = "run";
    /**
     * A file in the experiment folder that asks for a stop at the end of the epoch under way (scripts/repro.sh's
     * budget): the epoch finishes, the loop ends as if its last epoch had, the file is removed, and --resume
     * continues at the next epoch on a primary no later epoch has touched.
     */
    static final String STOP_FILE = "stop-after-epoch";

    private final BenchmarkConfig config;
    private final ExperimentSpec spec;
    private final ExperimentWorkload workload;
    private final BenchmarkModule module;
    private final Target primary;
    private final Path dir;
    private final PrintStream out;
    private final ExperimentListener listener;
    private final FreshServer freshServer;
    /** main-maintained's copies of the primary (experiment/maintained), or null without that mode. */
    private final FreshServer copies;

    private final Map<String, Object> database;
    private final String digest;
    private final RunFolder folder;
    private final int first;
    private final ExperimentState state;
    private final QuiescenceWait quiesce;
    private final Stopping stopping = new Stopping();
    /** Measuring for whole phases: the extend phase, main's and the other modes' unsliced run phases. */
    private final Measuring whole = new Measuring(false);

    private EpochProgress eta;

    EpochLoop(
            BenchmarkModule module,
            BenchmarkConfig config,
            ExperimentSpec spec,
            Target primary,
            Path dir,
            PrintStream out,
            ExperimentListener listener,
            RunFolder folder,
            Map<String, Object> database,
            String digest,
            int first,
            ExperimentState state) {
        this.module = module;
        this.config = config;
        this.spec = spec;
        this.workload = spec.workload();
        this.primary = primary;
        this.dir = dir;
        this.out = out;
        this.listener = listener;
        this.database = database;
        this.digest = digest;
        this.folder = folder;
        this.first = first;
        this.state = state;
        this.freshServer = new FreshServer(primary, config.target(), spec.freshInstance(), dir, out, state);
        this.copies = spec.maintainedInstance() == null
                ? null
                : new FreshServer(primary, config.target(), spec.maintainedInstance(), dir, out, state, true);
        this.quiesce = QuiescenceWait.system(spec.quiesceTimeoutSeconds(), stopping::requested);
    }

    /**
     * Runs epochs {@code first} .. the last, marking each finished in {@code state}; returns early when stopped.
     * Prints the experiment folder at the end, however it ends.
     */
    @Override
    public void run() throws Exception {
        try {
            epochs();
        } finally {
            out.println("Experiment: " + dir);
        }
    }

    private void epochs() throws Exception {
        boolean computed = spec.baselineVolumes() == ExperimentSpec.BaselineVolumes.COMPUTED;
        eta = EpochProgress.system(
                first, spec.epochs(), (computed ? 0 : 1) + spec.modes().size() * spec.slices());
        try (EpochsCsv csv = new EpochsCsv(dir, first - 1, workload.runTypeColumns())) {
            if (computed) {
                computedEpochs(csv);
                return;
            }
            for (int epoch = first; epoch <= spec.epochs(); epoch++) {
                ValueSizeStats afterExtend = epoch(epoch, csv);
                if (afterExtend == null) {
                    return;
                }
                // The state the next epoch starts from: main's run phase may have written since the extends.
                ValueSizeStats end = workload.runWrites() && spec.modes().contains(Mode.MAIN)
                        ? ValueSizeStats.of(primary, workload.dataTable())
                        : afterExtend;
                state.finished(epoch, end.records(), end.totalBytes());
                eta.epochDone(epoch);
                if (stopAsked(epoch)) {
                    return;
                }
            }
        }
    }

    /** True (and the request consumed) when {@link #STOP_FILE} asks for a stop after {@code epoch}, a not-last one. */
    private boolean stopAsked(int epoch) throws IOException {
        Path file = dir.resolve(STOP_FILE);
        if (epoch >= spec.epochs() || !Files.exists(file)) {
            return false;
        }
        Files.deleteIfExists(file);
        out.println("Stopped after epoch " + epoch + " of " + spec.epochs() + ", as " + STOP_FILE
                + " asked; --resume continues at epoch " + (epoch + 1) + ".");
        return true;
    }

    /**
     * A baselines-only experiment with computed volumes: no extend phase, the primary is read once (its record
     * count and loaded volume) and never written; each epoch's baselines are loaded at the volume its extends
     * would have made ({@link BaselineVolume#computed}).
     */
    private void computedEpochs(EpochsCsv csv) throws Exception {
        ValueSizeStats loaded = ValueSizeStats.of(primary, workload.dataTable());
        for (int epoch = first; epoch <= spec.epochs(); epoch++) {
            Path ed = epochDir(epoch);
            deleteTree(ed);
            BaselineVolume volume = BaselineVolume.computed(loaded, workload, epoch);
            out.printf(
                    Locale.ROOT,
                    "epoch %d/%d: computed volume %,d bytes in %,d records (no extend phase)%n",
                    epoch,
                    spec.epochs(),
                    volume.totalBytes(),
                    volume.records());
            boolean ran = spec.slices() > 1
                    ? interleaved(
                            new InterleavedModes.Epoch(
                                    epoch, config.randomSeed() + epoch * 1000L, null, null, volume, null, null, null),
                            csv)
                    : runModes(epoch, config.randomSeed() + epoch * 1000L, null, null, volume, null, csv, false);
            if (!ran) {
                return;
            }
            state.finished(epoch, loaded.records(), loaded.totalBytes());
            eta.epochDone(epoch);
            if (stopAsked(epoch)) {
                return;
            }
        }
    }

    /** Ends the current phase early (what it measured is kept); no later phase starts. Safe from any thread. */
    @Override
    public void stop() {
        stopping.request();
    }

    /**
     * Runs one epoch; returns the primary's value sizes after its extend phase, or null when stopped.
     *
     * <p>No full-table pass comes between the extend phase and main's run when the run phase only reads: main
     * runs on the caches the extends left, as the paper's main did, and the value sizes and clean's snapshot are
     * taken after it (the run phase did not change the data). When the run phase writes, the snapshot (the
     * paper's dump "at the end of each extend phase") must come before main's run, so it does; a logical
     * snapshot then gives the value sizes in the same pass.
     */
    private ValueSizeStats epoch(int epoch, EpochsCsv csv) throws Exception {
        Path ed = epochDir(epoch);
        deleteTree(ed); // the leftovers of an epoch that did not finish before a resume
        long base = config.randomSeed() + epoch * 1000L;
        PhaseSummary extend = WholeModes.phase(
                whole,
                csv,
                epoch,
                Mode.MAIN,
                EXTEND,
                workload.extendPhase(config, base + ExperimentRun.EXTEND_SEED_OFFSET),
                primary);
        if (extend == null || stopping.requested()) {
            return null;
        }
        progress(epoch, "extend", extend);
        listener.extendDone(epoch, primary, workload.dataTable());
        PhaseSummary mainRun = null;
        InterleavedModes.Slice mainSlice = null;
        boolean mainFirst = mainRunsFirst(spec);
        boolean sliced = spec.slices() > 1;
        QuiescenceWait.Result mainQuiet = null;
        if (mainFirst) {
            listener.beforeMainRun(epoch, primary);
            mainQuiet = quiet(primary);
            if (sliced) {
                // main's first slice straight after the extends, as the whole phase would be (InterleavedModes)
                folder.metrics().epoch(epoch, Mode.MAIN.label());
                mainSlice = measure(
                        epoch,
                        Mode.MAIN,
                        InterleavedModes.part(1, spec.slices()),
                        InterleavedModes.slice(workload, config, spec.warmupSeconds(), base, 1, spec.slices()),
                        primary);
                mainRun = mainSlice == null ? null : mainSlice.summary();
            } else {
                mainRun = WholeModes.phase(whole, csv, epoch, Mode.MAIN, RUN, runConfig(base), primary);
            }
            if (mainRun == null || stopping.requested()) {
                return null;
            }
            if (sliced) {
                csv.sliceRow(epoch, 1, Mode.MAIN, mainRun);
                progress(epoch, Mode.MAIN.label() + " slice 1/" + spec.slices(), mainRun, mainQuiet);
            }
        }
        String table = workload.dataTable();
        ValueSizeStats sizes = ValueSizeStats.withCap(workload.fieldCapAt());
        try (CleanSnapshot snapshot = spec.modes().contains(Mode.CLEAN)
                ? CleanSnapshot.take(
                        spec.cleanMethod(),
                        module,
                        config,
                        primary,
                        table,
                        Files.createDirectories(ed).resolve("clean-snapshot.tmp"),
                        sizes)
                : null) {
            if (snapshot == null || !snapshot.gaveSizes()) {
                sizes = ValueSizeStats.of(primary, table, workload.fieldCapAt());
            }
            csv.sizeRows(epoch, sizes);
            listener.primaryReady(epoch, primary, table);
            if (sliced) {
                InterleavedModes.Epoch e = new InterleavedModes.Epoch(
                        epoch, base, extend, sizes, BaselineVolume.of(sizes), snapshot, mainSlice, mainQuiet);
                return interleaved(e, csv) ? sizes : null;
            }
            if (mainFirst) {
                csv.epochRow(epoch, Mode.MAIN, sizes, extend, mainRun, null, null, mainQuiet);
                progress(epoch, Mode.MAIN.label(), mainRun, mainQuiet);
            }
            return runModes(epoch, base, extend, sizes, BaselineVolume.of(sizes), snapshot, csv, mainFirst)
                    ? sizes
                    : null;
        }
    }

    /** The epoch's run phases in slices, the modes alternating ({@link InterleavedModes}); false when stopped. */
    private boolean interleaved(InterleavedModes.Epoch e, EpochsCsv csv) throws Exception {
        return InterleavedModes.run(
                e, spec, module, config, primary, freshServer, copies, out, listener, csv, new Measuring(true));
    }

    /** The epoch's run phases whole, one mode after the other ({@link WholeModes}); false when stopped. */
    private boolean runModes(
            int epoch,
            long base,
            PhaseSummary extend,
            ValueSizeStats sizes,
            BaselineVolume volume,
            CleanSnapshot snapshot,
            EpochsCsv csv,
            boolean mainDone)
            throws Exception {
        WholeModes.Context c = new WholeModes.Context(
                spec, module, primary, freshServer, copies, out, listener, folder.metrics(), csv, whole);
        return WholeModes.run(
                c, epoch, runConfig(base), extend, sizes, volume, snapshot, mainDone, stopping::requested);
    }

    /**
     * What the loop lends {@link InterleavedModes} and {@link WholeModes}: measuring a phase, the quiescence wait,
     * the progress lines. For slices, each measured slice first labels the live metrics with its epoch and mode
     * (the modes alternate), and a slice after which a stop was asked counts as not measured; a whole mode is
     * labelled before its database is built, and its completed phase keeps its row.
     */
    private final class Measuring implements InterleavedModes.Host {
        private final boolean sliced;

        Measuring(boolean sliced) {
            this.sliced = sliced;
        }

        @Override
        public InterleavedModes.Slice measure(
                int epoch, Mode mode, String part, BenchmarkConfig phaseConfig, Target target) throws Exception {
            if (!sliced) {
                return EpochLoop.this.measure(epoch, mode, part, phaseConfig, target);
            }
            folder.metrics().epoch(epoch, mode.label());
            InterleavedModes.Slice s = EpochLoop.this.measure(epoch, mode, part, phaseConfig, target);
            return s == null || stopping.requested() ? null : s;
        }

        @Override
        public QuiescenceWait.Result quiet(Target target) throws InterruptedException {
            return EpochLoop.this.quiet(target);
        }

        @Override
        public void progress(int epoch, String what, PhaseSummary s, QuiescenceWait.Result quiet) {
            EpochLoop.this.progress(epoch, what, s, quiet);
        }

        @Override
        public void total(int epoch, Mode mode, PhaseSummary s, QuiescenceWait.Result quiet) {
            line(epoch, mode.label(), s, quiet, " (" + spec.slices() + " slices)");
        }
    }

    /** Whether main's run phase comes right after the extend phase: it must not change what clean copies. */
    static boolean mainRunsFirst(ExperimentSpec spec) {
        return spec.modes().contains(Mode.MAIN) && !spec.workload().runWrites();
    }

    /**
     * One run-phase config for every mode of the epoch: the modes replay the same operation sequence, so their
     * difference is the database's, not the sample's.
     */
    private BenchmarkConfig runConfig(long base) {
        return workload.runPhase(config, spec.warmupSeconds(), base);
    }

    /**
     * The quiescence wait before a measured run phase on {@code target}, the same for every mode (main's after
     * its extends, a fresh database's after it was built); null when experiment/quiesce/timeout is 0. A wait
     * that could not ask the server says why on a warning line; the phase runs anyway.
     */
    private QuiescenceWait.Result quiet(Target target) throws InterruptedException {
        QuiescenceWait.Result r = quiesce.await(target, workload.dataTable());
        if (r != null && r.error() != null) {
            out.println("warning: quiescence wait: " + r.error());
        }
        return r;
    }

    /**
     * Runs {@code phaseConfig}'s single phase against {@code target} into {@code epoch-NNN/<mode>/<part>}: its
     * summary and collector, or null when stopped before it started or while it ran.
     */
    private InterleavedModes.Slice measure(
            int epoch, Mode mode, String part, BenchmarkConfig phaseConfig, Target target) throws Exception {
        if (stopping.requested()) {
            return null;
        }
        Path phaseDir = epochDir(epoch).resolve(mode.label()).resolve(part);
        Files.createDirectories(phaseDir);
        BenchmarkModule phaseModule = BenchmarkRegistry.create(module.name()).orElseThrow();
        RunInfo info = folder.info(module, database, digest, phaseConfig);
        try (MeasuredRun run = new MeasuredRun(
                phaseModule, phaseConfig, target, phaseDir, info, folder.listener(dir, phaseDir, info))) {
            Exception failure = stopping.execute(run);
            if (failure != null) {
                throw failure;
            }
            if (run.stopRequested()) {
                // Cut short: not an ordinary epochs.csv row (its summary.json says interrupted).
                stopping.request();
                return null;
            }
            if (run.summaries().isEmpty()) {
                return null;
            }
            PhaseSummary summary = run.summaries().get(0);
            return new InterleavedModes.Slice(summary, run.collector().phase(summary.index()));
        }
    }

    private Path epochDir(int epoch) {
        return dir.resolve(String.format("epoch-%03d", epoch));
    }

    private void progress(int epoch, String what, PhaseSummary s) {
        progress(epoch, what, s, null);
    }

    /** The phase's progress line; a run phase's ends with its quiescence wait when there was one. */
    private void progress(int epoch, String what, PhaseSummary s, QuiescenceWait.Result quiet) {
        eta.phaseDone();
        line(epoch, what, s, quiet, "");
    }

    private void line(int epoch, String what, PhaseSummary s, QuiescenceWait.Result quiet, String note) {
        Double avg = s.responseTimeUs().avg();
        out.printf(
                Locale.ROOT,
                "epoch %d/%d mode %s: %,d ops, %,.0f ops/s, avg %s us%s%s ... ETA %s%n",
                epoch,
                spec.epochs(),
                what,
                s.counts().total(),
                s.throughput() == null ? 0.0 : s.throughput(),
                avg == null ? "-" : String.format(Locale.ROOT, "%.0f", avg),
                quiet == null ? "" : ", " + quiet.describe(),
                note,
                EpochProgress.duration(eta.etaSeconds()));
    }

    private static void deleteTree(Path p) throws IOException {
        if (!Files.exists(p)) {
            return;
        }
        try (Stream<Path> s = Files.walk(p)) {
            for (Path q : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(q);
            }
        }
    }
}
