package org.ivsbench.experiment;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.ivsbench.bench.BenchmarkModule;
import org.ivsbench.bench.ycsbivs.YcsbIvsParameters;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.ConfigDigest;
import org.ivsbench.config.ConfigException;
import org.ivsbench.stats.EnvironmentWriter;
import org.ivsbench.stats.PhaseSummary;
import org.ivsbench.stats.ResultsDirectory;
import org.ivsbench.db.ServerInfo;
import org.ivsbench.db.Target;

/**
 * Runs a YCSB-IVS experiment: per epoch an extend phase on the primary, a value-size pass, clean's snapshot
 * ({@link CleanSnapshot}), then each mode's run phase (main on the primary; clean, average-baseline and
 * spread-baseline on fresh databases, on the primary's server or on a fresh instance: {@link FreshServer}). Writes
 * {@code <parent>/<benchmark>-experiment_<stamp>/} as docs/results-format.md ("Experiments") describes.
 * Per-phase seeds: {@code randomSeed + epoch * 1000 + mode index} (main 0, clean 1, average-baseline 2,
 * spread-baseline 3) for run phases, {@code + 9} for the extend phase.
 */
public final class ExperimentRunner {
    static final int EXTEND_SEED_OFFSET = 9;
    private static final int OK = 0;
    private static final int FAILED = 1;
    private static final int INTERRUPTED = 130;

    private ExperimentRunner() {
    }

    /** Runs (or with {@code resume}, continues) the experiment; returns the exit code 0, 1 or 130. */
    public static int run(BenchmarkModule module, BenchmarkConfig config, ExperimentSpec spec, Target target,
            Path resultsParent, int windowSeconds, PrintStream out, List<String> commandLine, boolean resume) {
        return run(module, config, spec, target, resultsParent, windowSeconds, out, commandLine, resume,
                ExperimentListener.NONE);
    }

    static int run(BenchmarkModule module, BenchmarkConfig config, ExperimentSpec spec, Target target,
            Path resultsParent, int windowSeconds, PrintStream out, List<String> commandLine, boolean resume,
            ExperimentListener listener) {
        String prefix = module.name() + "-experiment";
        Path dir;
        ExperimentState state;
        String digest = ConfigDigest.sha256(spec.describe().toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        try {
            if (resume) {
                dir = ExperimentState.newest(resultsParent, prefix);
                if (dir == null) {
                    System.err.println("error: --resume: no " + prefix + "_* folder with " + ExperimentState.FILE + " in "
                            + resultsParent);
                    return FAILED;
                }
                state = ExperimentState.read(dir);
                if (!state.sameSpecBesidesEpochs(spec.describe())) {
                    System.err.println("error: --resume: the <experiment> section differs (other than <epochs>) from"
                            + " the one in " + dir.resolve(ExperimentState.FILE));
                    return FAILED;
                }
                List<String> differing = state.settingsDiffering(header(module, config, spec, commandLine));
                if (!differing.isEmpty()) {
                    System.err.println("error: --resume: the configuration differs from the one in "
                            + dir.resolve(ExperimentState.FILE) + ": " + String.join(", ", differing));
                    return FAILED;
                }
                if (!primaryFitsResume(state, target, YcsbIvsParameters.from(config).table(), spec, out)) {
                    return FAILED;
                }
            } else {
                dir = ResultsDirectory.create(resultsParent, prefix);
                Map<String, Object> env = ServerInfo.environmentOf(target);
                EnvironmentWriter.write(dir.resolve("environment.json"), env, EnvironmentWriter.toolVersion(), commandLine);
                writeRedactedConfig(config, dir);
                state = ExperimentState.create(dir, header(module, config, spec, commandLine));
            }
        } catch (IOException e) {
            System.err.println("error: results folder: " + e.getMessage());
            return FAILED;
        } catch (ConfigException | org.ivsbench.db.TargetException e) {
            System.err.println("error: --resume: " + e.getMessage());
            return FAILED;
        }
        int first = state.lastFinishedEpoch() + 1;
        out.println("Experiment: " + dir + (resume ? " (resuming at epoch " + first + ")" : ""));
        if (first > spec.epochs()) {
            out.println("All " + spec.epochs() + " epochs are finished.");
            return OK;
        }
        Map<String, Object> database = org.ivsbench.stats.RunInfo.databaseBlock(config, ServerInfo.environmentOf(target));
        PhaseExecutor executor = new PhaseExecutor(module.name(), EnvironmentWriter.toolVersion(), database, digest, windowSeconds);
        CountDownLatch written = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            executor.stop();
            try {
                written.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "ivsbench-experiment-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        int code;
        try {
            new Epochs(module, config, spec, target, dir, out, executor, listener).run(first, state);
            code = executor.stopped() ? INTERRUPTED : OK;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            code = INTERRUPTED;
        } catch (Exception e) {
            System.err.println("error: the experiment stopped: " + e.getMessage());
            code = executor.stopped() ? INTERRUPTED : FAILED;
        } finally {
            out.println("Experiment: " + dir);
            written.countDown();
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // The JVM is exiting on a signal; the hook waits for `written`.
        }
        return code;
    }

    private static Map<String, Object> header(BenchmarkModule module, BenchmarkConfig config, ExperimentSpec spec,
            List<String> commandLine) {
        Map<String, Object> header = new LinkedHashMap<>();
        header.put("benchmark", module.name());
        header.put("toolVersion", EnvironmentWriter.toolVersion());
        header.put("started", java.time.Instant.now().toString());
        header.put("commandLine", commandLine);
        header.put("randomSeed", config.randomSeed());
        header.put("terminals", config.terminals());
        header.put("parameters", new java.util.TreeMap<>(config.parameters()));
        header.put("spec", spec.describe());
        return header;
    }

    /**
     * Checks the primary against the end of the last finished epoch (records and data bytes, one streaming
     * pass). Another record count, or fewer bytes when no run phase writes, is another database (re-created
     * or re-loaded): refused. More bytes are the extends of an interrupted epoch, which cannot be undone: the
     * resume goes on, says so, and records the drift in experiment.json.
     */
    private static boolean primaryFitsResume(ExperimentState state, Target primary, String table, ExperimentSpec spec,
            PrintStream out) throws org.ivsbench.db.TargetException, IOException {
        long[] expected = state.primaryAtLastEpoch();
        if (expected == null || state.lastFinishedEpoch() == 0) {
            return true; // nothing finished yet (the epoch re-runs from the load) or an older experiment.json
        }
        out.println("Checking the primary against the end of epoch " + state.lastFinishedEpoch() + " ...");
        ValueSizeStats now = ValueSizeStats.of(primary, table);
        long drift = now.totalBytes() - expected[1];
        if (now.records() != expected[0] || (drift < 0 && !spec.runWrites())) {
            System.err.println("error: --resume: the database is not the experiment's primary as epoch "
                    + state.lastFinishedEpoch() + " left it: it holds " + now.records() + " records of "
                    + now.totalBytes() + " bytes, epoch " + state.lastFinishedEpoch() + " ended with " + expected[0]
                    + " records of " + expected[1] + " bytes (was it re-created or re-loaded?); start a new"
                    + " experiment instead");
            return false;
        }
        if (drift != 0) {
            out.println("warning: the primary holds " + drift + " bytes " + (drift > 0 ? "more" : "less")
                    + " than at the end of epoch " + state.lastFinishedEpoch() + " (operations of the interrupted"
                    + " epoch were applied and cannot be undone); epoch " + (state.lastFinishedEpoch() + 1)
                    + " re-runs in full on it. Recorded in " + ExperimentState.FILE + " (resumesWithDrift).");
            state.resumedWithDrift(state.lastFinishedEpoch() + 1, drift);
        }
        return true;
    }

    /** The epoch loop of one invocation. */
    private static final class Epochs {
        private final BenchmarkModule module;
        private final BenchmarkConfig config;
        private final ExperimentSpec spec;
        private final Target primary;
        private final Path dir;
        private final PrintStream out;
        private final PhaseExecutor executor;
        private final ExperimentListener listener;
        private final YcsbIvsParameters params;
        private final FreshServer freshServer;
        private final long started = System.nanoTime();
        private int phasesDone;
        private int phasesTotal;

        Epochs(BenchmarkModule module, BenchmarkConfig config, ExperimentSpec spec, Target primary, Path dir,
                PrintStream out, PhaseExecutor executor, ExperimentListener listener) throws ConfigException {
            this.module = module;
            this.config = config;
            this.spec = spec;
            this.primary = primary;
            this.dir = dir;
            this.out = out;
            this.executor = executor;
            this.listener = listener;
            this.params = YcsbIvsParameters.from(config);
            this.freshServer = new FreshServer(primary, config.target(), spec.freshInstance(), dir, out);
        }

        void run(int first, ExperimentState state) throws Exception {
            phasesTotal = (spec.epochs() - first + 1) * (1 + spec.modes().size());
            try (EpochsCsv csv = new EpochsCsv(dir, first - 1)) {
                for (int epoch = first; epoch <= spec.epochs(); epoch++) {
                    ValueSizeStats afterExtend = epoch(epoch, csv);
                    if (afterExtend == null) {
                        return;
                    }
                    // The state the next epoch starts from: main's run phase may have written since the extends.
                    ValueSizeStats end = spec.runWrites() && spec.modes().contains(Mode.MAIN)
                            ? ValueSizeStats.of(primary, params.table()) : afterExtend;
                    state.finished(epoch, end.records(), end.totalBytes());
                }
            }
        }

        /** Runs one epoch; returns the primary's value sizes after its extend phase, or null when stopped. */
        private ValueSizeStats epoch(int epoch, EpochsCsv csv) throws Exception {
            Path ed = dir.resolve(String.format("epoch-%03d", epoch));
            deleteTree(ed); // the leftovers of an epoch that did not finish before a resume
            long base = config.randomSeed() + epoch * 1000L;
            PhaseSummary extend = executor.run(spec.phaseConfig(config, spec.extendPhase(config.terminals()),
                    base + EXTEND_SEED_OFFSET), primary, ed.resolve("main").resolve("extend"));
            if (extend == null || executor.stopped()) {
                return null;
            }
            progress(epoch, "extend", extend);
            ValueSizeStats sizes = ValueSizeStats.of(primary, params.table());
            csv.sizeRows(epoch, sizes);
            listener.primaryReady(epoch, primary, params.table());
            // The paper's dump "at the end of each extend phase": before main's run phase, which may write.
            try (CleanSnapshot snapshot = spec.modes().contains(Mode.CLEAN)
                    ? CleanSnapshot.take(spec.cleanMethod(), module, config, primary, params.table(),
                            Files.createDirectories(ed).resolve("clean-snapshot.tmp"))
                    : null) {
                return runModes(epoch, ed, base, extend, sizes, snapshot, csv) ? sizes : null;
            }
        }

        private boolean runModes(int epoch, Path ed, long base, PhaseSummary extend, ValueSizeStats sizes,
                CleanSnapshot snapshot, EpochsCsv csv) throws Exception {
            for (Mode mode : spec.modes()) {
                BenchmarkConfig runConfig = spec.phaseConfig(config, spec.runPhase(config.terminals()),
                        base + mode.ordinal());
                Path runDir = ed.resolve(mode.label()).resolve("run");
                PhaseSummary run;
                switch (mode) {
                    case MAIN -> {
                        run = executor.run(runConfig, primary, runDir);
                        if (run != null) {
                            csv.epochRow(epoch, mode, sizes, extend, run, null, null);
                        }
                    }
                    case CLEAN, AVERAGE_BASELINE, SPREAD_BASELINE ->
                            run = freshMode(epoch, mode, runConfig, sizes, snapshot, runDir, csv);
                    default -> throw new IllegalStateException(mode.toString());
                }
                if (run == null || executor.stopped()) {
                    return false;
                }
                progress(epoch, mode.label(), run);
            }
            return true;
        }

        /**
         * One fresh-database mode: a server from {@link FreshServer}, the mode's database built there, its run
         * phase, its epochs.csv row; the database is dropped and an instance's connections closed in any case.
         */
        private PhaseSummary freshMode(int epoch, Mode mode, BenchmarkConfig runConfig, ValueSizeStats sizes,
                CleanSnapshot snapshot, Path runDir, EpochsCsv csv) throws Exception {
            Target server = freshServer.acquire(mode, epoch, params.table());
            try {
                BenchmarkConfig phaseConfig = runConfig;
                ValueSizeStats rowSizes = sizes;
                FreshDatabases.Built b;
                switch (mode) {
                    case CLEAN -> b = snapshot.restore(server, freshServer.config());
                    case AVERAGE_BASELINE -> {
                        long length = Math.round(sizes.average());
                        phaseConfig = derived(runConfig, sizes.records(), length);
                        rowSizes = ValueSizeStats.uniform(sizes.records(), params.fieldCount(), length);
                        b = FreshDatabases.baseline(phaseConfig, server, FreshDatabases.AVERAGE, module.name());
                    }
                    case SPREAD_BASELINE -> {
                        long records = spreadRecords(sizes.totalBytes(), params.initialRecordBytes(),
                                sizes.records());
                        phaseConfig = derived(runConfig, records, params.fieldLength());
                        rowSizes = ValueSizeStats.uniform(records, params.fieldCount(), params.fieldLength());
                        b = FreshDatabases.baseline(phaseConfig, server, FreshDatabases.SPREAD, module.name());
                    }
                    default -> throw new IllegalStateException(mode.toString());
                }
                PhaseSummary run;
                try {
                    listener.freshReady(epoch, mode, b.target(), params.table());
                    run = executor.run(phaseConfig, b.target(), runDir);
                    listener.beforeDrop(epoch, mode, b.target(), params.table());
                } finally {
                    FreshDatabases.drop(server, b);
                }
                if (run != null) {
                    csv.epochRow(epoch, mode, rowSizes, null, run, b.snapshotMs(), b.restoreMs());
                }
                return run;
            } finally {
                freshServer.release(server);
            }
        }

        /** The run config with recordcount and fieldlength replaced (a baseline's own data set). */
        private static BenchmarkConfig derived(BenchmarkConfig runConfig, long records, long fieldLength) {
            Map<String, String> p = new HashMap<>(runConfig.parameters());
            p.put("recordcount", Long.toString(records));
            p.put("fieldlength", Long.toString(fieldLength));
            return runConfig.withParameters(p);
        }

        private void progress(int epoch, String what, PhaseSummary s) {
            phasesDone++;
            double elapsed = (System.nanoTime() - started) / 1e9;
            long eta = Math.round(elapsed / phasesDone * (phasesTotal - phasesDone));
            Double avg = s.responseTimeUs().avg();
            out.printf(java.util.Locale.ROOT, "epoch %d/%d mode %s: %,d ops, %,.0f ops/s, avg %s us ... ETA %s%n",
                    epoch, spec.epochs(), what, s.counts().total(), s.throughput() == null ? 0.0 : s.throughput(),
                    avg == null ? "-" : String.format(java.util.Locale.ROOT, "%.0f", avg), duration(eta));
        }
    }

    /** spread-baseline's record count: the primary's data volume in records of the initial size. */
    static long spreadRecords(long totalBytes, long initialRecordBytes, long fallback) {
        if (initialRecordBytes <= 0) {
            return Math.max(1, fallback);
        }
        return Math.max(1, Math.round((double) totalBytes / initialRecordBytes));
    }

    static String duration(long seconds) {
        return String.format("%d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60);
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

    /** The configuration as run, secrets redacted, like a plain run's config.xml. */
    private static void writeRedactedConfig(BenchmarkConfig config, Path dir) throws IOException {
        if (config.source() == null) {
            return;
        }
        try {
            java.nio.file.Files.writeString(dir.resolve("config.xml"),
                    org.ivsbench.config.ConfigRedactor.redactedXml(config.source()));
        } catch (org.ivsbench.config.ConfigException e) {
            throw new IOException(e.getMessage(), e);
        }
    }
}
