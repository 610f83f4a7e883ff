package org.ivsbench.experiment;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.ivsbench.bench.BenchmarkModule;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.ConfigDigest;
import org.ivsbench.config.ConfigException;
import org.ivsbench.config.ConfigRedactor;
import org.ivsbench.db.ServerInfo;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;
import org.ivsbench.run.LiveMetrics;
import org.ivsbench.run.NextStep;
import org.ivsbench.run.RunFolder;
import org.ivsbench.run.RunLifecycle;
import org.ivsbench.stats.EnvironmentWriter;

/**
 * --execute with an {@code <experiment>}: makes (or with --resume, checks and reopens) the experiment folder
 * {@code <parent>/<benchmark>-experiment_<stamp>/} (docs/results-format.md, "Experiments"), then runs the
 * {@link EpochLoop} under the {@link RunLifecycle}. Per-phase seeds: {@code randomSeed + epoch * 1000} for the run
 * phase of every mode of the epoch (they replay the same sequence), {@code + 9} for the extend phase.
 */
public final class ExperimentRun {
    static final int EXTEND_SEED_OFFSET = 9;
    private static final int OK = RunLifecycle.COMPLETED;
    private static final int FAILED = RunLifecycle.FAILED;

    private ExperimentRun() {}

    static int failedCode() {
        return FAILED;
    }

    /**
     * Runs (or with {@code resume}, continues) the experiment, every phase's operations also reported to
     * {@code metrics} (--metrics-listen; {@link LiveMetrics#NONE} without); returns the exit code 0, 1 or 130.
     */
    public static int run(
            BenchmarkModule module,
            BenchmarkConfig config,
            ExperimentSpec spec,
            Target target,
            Path resultsParent,
            int windowSeconds,
            PrintStream out,
            List<String> commandLine,
            boolean resume,
            LiveMetrics metrics) {
        return run(
                module,
                config,
                spec,
                target,
                resultsParent,
                windowSeconds,
                out,
                commandLine,
                resume,
                ExperimentListener.NONE,
                metrics);
    }

    static int run(
            BenchmarkModule module,
            BenchmarkConfig config,
            ExperimentSpec spec,
            Target target,
            Path resultsParent,
            int windowSeconds,
            PrintStream out,
            List<String> commandLine,
            boolean resume,
            ExperimentListener listener) {
        return run(
                module,
                config,
                spec,
                target,
                resultsParent,
                windowSeconds,
                out,
                commandLine,
                resume,
                listener,
                LiveMetrics.NONE);
    }

    static int run(
            BenchmarkModule module,
            BenchmarkConfig config,
            ExperimentSpec spec,
            Target target,
            Path resultsParent,
            int windowSeconds,
            PrintStream out,
            List<String> commandLine,
            boolean resume,
            ExperimentListener listener,
            LiveMetrics metrics) {
        String prefix = module.name() + "-experiment";
        Path dir;
        ExperimentState state;
        RunFolder folder = new RunFolder(commandLine, windowSeconds, metrics);
        String digest = ConfigDigest.sha256(spec.describe().toString().getBytes(StandardCharsets.UTF_8));
        try {
            if (resume) {
                dir = ExperimentState.newest(resultsParent, prefix);
                if (dir == null) {
                    System.err.println("error: --resume: no " + prefix + "_* folder with " + ExperimentState.FILE
                            + " in " + resultsParent);
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
                if (!primaryFitsResume(state, target, spec, out)) {
                    return FAILED;
                }
            } else {
                dir = RunFolder.create(resultsParent, prefix);
                folder.write(dir, redactedConfig(config), target, config);
                state = ExperimentState.create(dir, header(module, config, spec, commandLine));
                // The primary as the load left it: a resume after an interruption in epoch 1 is checked against it.
                ValueSizeStats loaded =
                        ValueSizeStats.of(target, spec.workload().dataTable());
                state.finished(0, loaded.records(), loaded.totalBytes());
            }
        } catch (IOException e) {
            System.err.println("error: results folder: " + e.getMessage());
            return FAILED;
        } catch (TargetException e) {
            System.err.println("error: --resume: " + e.getMessage());
            return FAILED;
        }
        try {
            // What the run phases' speed depends on besides the data (a fresh instance's are compared with these).
            state.serverSettings("primary", ServerSettings.of(target), null);
        } catch (IOException e) {
            System.err.println("error: results folder: " + e.getMessage());
            return FAILED;
        }
        int first = state.lastFinishedEpoch() + 1;
        out.println("Experiment: " + dir + (resume ? " (resuming at epoch " + first + ")" : ""));
        if (first > spec.epochs()) {
            out.println("All " + spec.epochs() + " epochs are finished.");
            return OK;
        }
        Map<String, Object> database = RunFolder.database(module, config, ServerInfo.environmentOf(target));
        EpochLoop loop =
                new EpochLoop(module, config, spec, target, dir, out, listener, folder, database, digest, first, state);
        int code = new RunLifecycle("experiment", loop, System.err).run();
        out.println(NextStep.line(dir));
        return code;
    }

    private static Map<String, Object> header(
            BenchmarkModule module, BenchmarkConfig config, ExperimentSpec spec, List<String> commandLine) {
        Map<String, Object> header = new LinkedHashMap<>();
        header.put("benchmark", module.name());
        header.put("toolVersion", EnvironmentWriter.toolVersion());
        header.put("started", Instant.now().toString());
        header.put("commandLine", commandLine);
        header.put("randomSeed", config.randomSeed());
        header.put("terminals", config.terminals());
        header.put("parameters", new TreeMap<>(config.parameters()));
        header.put("spec", spec.describe());
        return header;
    }

    /**
     * Checks the primary against the end of the last finished epoch, or against the load for epoch 1 (records
     * and data bytes, one streaming pass). Another record count, or fewer bytes when no run phase writes, is another database (re-created
     * or re-loaded): refused. More bytes are the extends of an interrupted epoch, which cannot be undone: the
     * resume goes on, says so, and records the drift in experiment.json.
     */
    private static boolean primaryFitsResume(
            ExperimentState state, Target primary, ExperimentSpec spec, PrintStream out)
            throws TargetException, IOException {
        long[] expected = state.primaryAtLastEpoch();
        if (expected == null) {
            return true; // an experiment.json from before the primary was recorded: nothing to check against
        }
        int last = state.lastFinishedEpoch();
        String when = last == 0 ? "after the load" : "at the end of epoch " + last;
        out.println("Checking the primary against its state " + when + " ...");
        ValueSizeStats now = ValueSizeStats.of(primary, spec.workload().dataTable());
        long drift = now.totalBytes() - expected[1];
        if (now.records() != expected[0] || (drift < 0 && !spec.workload().runWrites())) {
            System.err.println("error: --resume: the database is not the experiment's primary as it was " + when
                    + ": it holds " + now.records() + " records of " + now.totalBytes() + " bytes, " + when + " it"
                    + " held " + expected[0] + " records of " + expected[1] + " bytes (was it re-created or"
                    + " re-loaded?); start a new experiment instead");
            return false;
        }
        if (drift != 0) {
            out.println("warning: the primary holds " + Math.abs(drift) + " bytes " + (drift > 0 ? "more" : "less")
                    + " than " + when + " (operations of the interrupted epoch were applied and cannot be undone);"
                    + " epoch " + (last + 1) + " re-runs in full on it. Recorded in " + ExperimentState.FILE
                    + " (resumesWithDrift).");
            state.resumedWithDrift(last + 1, drift);
        }
        return true;
    }

    /** The configuration as run, secrets redacted, like a plain run's config.xml; null without a source file. */
    private static String redactedConfig(BenchmarkConfig config) throws IOException {
        if (config.source() == null) {
            return null;
        }
        try {
            return ConfigRedactor.redactedXml(config.source());
        } catch (ConfigException e) {
            throw new IOException(e.getMessage(), e);
        }
    }
}
