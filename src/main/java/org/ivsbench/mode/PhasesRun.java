package org.ivsbench.mode;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import org.ivsbench.bench.BenchmarkModule;
import org.ivsbench.bench.LoadReport;
import org.ivsbench.benchbase.BenchBaseOutputs;
import org.ivsbench.benchbase.RawCsv;
import org.ivsbench.benchbase.RawRecordingModule;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.PhaseConfig;
import org.ivsbench.config.Shard;
import org.ivsbench.db.Target;
import org.ivsbench.run.LiveMetrics;
import org.ivsbench.run.MeasuredRun;
import org.ivsbench.run.NextStep;
import org.ivsbench.run.RunFolder;
import org.ivsbench.run.RunLifecycle;
import org.ivsbench.run.Stopping;
import org.ivsbench.stats.EnvironmentWriter;
import org.ivsbench.stats.RunInfo;
import org.ivsbench.trace.TraceHeader;
import org.ivsbench.trace.TraceWriter;
import org.ivsbench.trace.TracingModule;

/**
 * --execute without an {@code <experiment>}: the config's {@code <works>} phases as one {@link MeasuredRun} with
 * live progress, in a new results folder, under the {@link RunLifecycle} (the summary is written however the run
 * ends: normally, by a database failure, or by Ctrl-C / SIGTERM).
 */
final class PhasesRun implements RunLifecycle.Work {
    private static final ObjectMapper LOAD_JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private final BenchmarkModule module;
    private final BenchmarkConfig config;
    private final Target target;
    private final RunOptions options;
    private final PrintStream out;
    private final Stopping stopping = new Stopping();
    private MeasuredRun run;
    private RawCsv raw;
    private TraceWriter trace;
    private Path dir;
    private LoadReport loaded;
    private LiveMetrics metrics = LiveMetrics.NONE;

    PhasesRun(BenchmarkModule module, BenchmarkConfig config, Target target, RunOptions options, PrintStream out) {
        this.module = module;
        this.config = config;
        this.target = target;
        this.options = options;
        this.out = out;
    }

    /** The live metrics the run reports to (--metrics-listen). */
    PhasesRun metrics(LiveMetrics value) {
        this.metrics = value;
        return this;
    }

    /** The load this invocation did before the run (or null): its details go to load.json. */
    PhasesRun loaded(LoadReport report) {
        this.loaded = report;
        return this;
    }

    /** Makes the results folder and runs the phases; returns the exit code. */
    int execute(List<String> commandLine, String redactedXml) throws IOException {
        String digest = RunFolder.digest(redactedXml);
        dir = RunFolder.create(options.directory(), module.name());
        RunFolder folder = new RunFolder(commandLine, options.windowSeconds(), metrics);
        RunInfo info = folder.prepare(dir, redactedXml, module, config, target);
        if (loaded != null && !loaded.details().isEmpty()) {
            LOAD_JSON.writeValue(dir.resolve("load.json").toFile(), loaded.details());
        }
        Shard shard = config.shard();
        out.println("Results: " + dir);
        BenchmarkModule measured = module;
        if (options.benchbaseRaw()) {
            raw = new RawCsv(dir.resolve(dir.getFileName() + ".raw.csv"), config.transactionTypeNames());
            measured = new RawRecordingModule(module, raw);
        }
        if (options.trace() != null) {
            trace = TraceWriter.open(
                    options.trace(),
                    TraceHeader.of(
                            EnvironmentWriter.toolVersion(),
                            digest,
                            module.name(),
                            config.randomSeed(),
                            config.terminals()));
            measured = new TracingModule(measured, trace);
        }
        run = new MeasuredRun(measured, config, target, dir, info, folder.listener(dir, dir, info));
        if (!shard.whole()) {
            ShardGate.install(run, target, shard, digest, options.barrierTimeoutSeconds(), out);
        }
        return new RunLifecycle("run", this, System.err).run();
    }

    @Override
    public void run() throws Exception {
        ConsoleProgress progress = new ConsoleProgress(run.manager(), shardPhases(), out);
        Exception failure;
        try {
            progress.start();
            failure = stopping.execute(run);
        } finally {
            progress.stop();
            run.close();
            closeRaw();
            closeTrace();
            // Printed before the lifecycle releases the shutdown hook: on a signal the JVM exits as soon as it returns.
            SummaryTable.print(out, run.summaries());
            writeBenchBaseFiles();
            out.println("Results: " + dir);
            out.println(NextStep.line(dir));
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** The phases as this driver runs them (its share with --shard), for its summary and progress. */
    private List<PhaseConfig> shardPhases() {
        return config.phases().stream().map(config.shard()::view).toList();
    }

    private void closeRaw() {
        if (raw != null) {
            try {
                raw.close();
            } catch (IOException e) {
                System.err.println("error: BenchBase .raw.csv: " + e.getMessage());
            }
        }
    }

    private void closeTrace() {
        if (trace != null) {
            try {
                trace.close();
                out.println("Trace: " + options.trace());
            } catch (IOException e) {
                System.err.println("error: --trace " + options.trace() + ": " + e.getMessage());
            }
        }
    }

    /** BenchBase's files are derived from the finished run's own; a failure here leaves those intact. */
    private void writeBenchBaseFiles() {
        try {
            if (options.benchbaseOutputs()) {
                BenchBaseOutputs.write(dir);
            }
            if (options.jsonHistograms() != null) {
                BenchBaseOutputs.writeJsonHistograms(dir, options.jsonHistograms());
                out.println("Histograms JSON: " + options.jsonHistograms());
            }
        } catch (IOException | RuntimeException e) {
            System.err.println("error: BenchBase result files: " + e.getMessage());
        }
    }

    @Override
    public void stop() {
        stopping.request();
    }
}
