package org.ivsbench.mode;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import org.ivsbench.bench.BenchmarkModule;
import org.ivsbench.bench.BenchmarkRegistry;
import org.ivsbench.bench.LoadReport;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.db.Target;
import org.ivsbench.run.LiveMetrics;
import org.ivsbench.run.MeasuredRun;
import org.ivsbench.run.RunFolder;
import org.ivsbench.run.RunLifecycle;
import org.ivsbench.run.Stopping;
import org.ivsbench.stats.PhaseSummary;
import org.ivsbench.stats.RunInfo;

/**
 * --execute with a {@code <sweep>}: one {@link MeasuredRun} per point (terminals, count, trial), each in its own
 * folder under {@code <bench>-sweep_<stamp>/}, one sweep.csv row per finished point, all under one
 * {@link RunLifecycle} so Ctrl-C ends the current point, keeps its measurements and the rows so far.
 * Each point gets a new module instance: a module may hold per-run state (shared keys) that must not leak
 * from one point into the next.
 */
final class SweepRun implements RunLifecycle.Work {
    private final BenchmarkModule module;
    private final BenchmarkConfig config;
    private final Target target;
    private final RunOptions options;
    private final PrintStream out;
    private final boolean justLoaded;
    /** Ends the current point (its run, or its reload: a stop interrupts the load, which can take long). */
    private final Stopping stopping = new Stopping();

    private Path dir;
    private RunFolder folder;
    private String redactedXml;
    private LiveMetrics metrics = LiveMetrics.NONE;

    /** {@code justLoaded}: this invocation has just loaded fresh data, so the first point needs no reload. */
    SweepRun(
            BenchmarkModule module,
            BenchmarkConfig config,
            Target target,
            RunOptions options,
            PrintStream out,
            boolean justLoaded) {
        this.module = module;
        this.config = config;
        this.target = target;
        this.options = options;
        this.out = out;
        this.justLoaded = justLoaded;
    }

    /** The live metrics every point reports to (--metrics-listen). */
    SweepRun metrics(LiveMetrics value) {
        this.metrics = value;
        return this;
    }

    int execute(List<String> commandLine, String redactedXml) throws IOException {
        this.folder = new RunFolder(commandLine, options.windowSeconds(), metrics);
        this.redactedXml = redactedXml;
        dir = RunFolder.create(options.directory(), module.name() + "-sweep");
        Files.writeString(dir.resolve("config.xml"), redactedXml);
        out.println("Sweep results: " + dir);
        return new RunLifecycle("sweep", this, System.err).run();
    }

    @Override
    public void run() throws Exception {
        List<SweepPoints.Point> points = SweepPoints.of(config);
        long sweepStart = System.nanoTime();
        try (SweepCsv csv = new SweepCsv(dir.resolve("sweep.csv"))) {
            for (int i = 0; i < points.size() && !stopping.requested(); i++) {
                SweepPoints.Point point = points.get(i);
                BenchmarkConfig pointConfig = SweepPoints.configFor(config, point);
                BenchmarkModule pointModule =
                        BenchmarkRegistry.create(module.name()).orElse(module);
                if (config.sweep().reload() && !(i == 0 && justLoaded)) {
                    reload(pointModule, pointConfig);
                }
                if (stopping.requested()) {
                    break;
                }
                Path pointDir = Files.createDirectory(dir.resolve(point.folderName()));
                PhaseSummary summary = runPoint(pointModule, pointConfig, pointDir);
                boolean interrupted = stopping.requested();
                if (summary != null) {
                    csv.row(config.target().type(), module.name(), point, summary, interrupted, point.folderName());
                }
                out.println(progressLine(i + 1, points.size(), point, summary, System.nanoTime() - sweepStart));
            }
        } finally {
            out.println("Sweep results: " + dir + " (sweep.csv)");
            out.println("Next: .cache/venv/bin/python -m ivs_analyzer sweep " + dir);
        }
    }

    private void reload(BenchmarkModule pointModule, BenchmarkConfig pointConfig) throws Exception {
        try (LoadProgressBar bar = new LoadProgressBar(out)) {
            stopping.interruptibly(() -> {
                pointModule.create(pointConfig, target);
                LoadReport r = pointModule.load(pointConfig, target, bar);
                bar.done();
                out.printf("Reloaded %,d records in %.1f s%n", r.records(), Math.max(1, r.elapsedMillis()) / 1000.0);
            });
        }
    }

    /** Runs one point; returns its measured phase's summary, or null when the run ended before reaching it. */
    private PhaseSummary runPoint(BenchmarkModule pointModule, BenchmarkConfig pointConfig, Path pointDir)
            throws Exception {
        RunInfo info = folder.prepare(pointDir, redactedXml, pointModule, pointConfig, target);
        Exception failure;
        List<PhaseSummary> summaries;
        try (MeasuredRun run = new MeasuredRun(
                pointModule, pointConfig, target, pointDir, info, folder.listener(dir, pointDir, info))) {
            failure = stopping.execute(run);
            summaries = run.summaries();
        }
        if (failure != null) {
            throw failure;
        }
        int measured = SweepPoints.measuredPhase(pointConfig);
        return summaries.stream().filter(s -> s.index() == measured).findFirst().orElse(null);
    }

    static String progressLine(int done, int total, SweepPoints.Point point, PhaseSummary summary, long elapsedNanos) {
        double perPoint = elapsedNanos / 1e9 / done;
        long etaSeconds = Math.round(perPoint * (total - done));
        String figures = summary == null
                ? "no measured phase"
                : String.format(
                        Locale.ROOT,
                        "runtime %.0f ms, %.0f ops/s",
                        summary.measuredSeconds() * 1000,
                        summary.throughput() == null ? 0.0 : summary.throughput());
        return String.format(
                Locale.ROOT,
                "[%d/%d] terminals %d, count %s, trial %d: %s; ETA %d:%02d:%02d",
                done,
                total,
                point.terminals(),
                point.count() == null ? "as configured" : point.count(),
                point.trial(),
                figures,
                etaSeconds / 3600,
                etaSeconds / 60 % 60,
                etaSeconds % 60);
    }

    @Override
    public void stop() {
        stopping.request();
    }
}
