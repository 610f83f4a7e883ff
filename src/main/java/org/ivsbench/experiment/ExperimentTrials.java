package org.ivsbench.experiment;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.ivsbench.bench.BenchmarkModule;
import org.ivsbench.bench.LoadProgress;
import org.ivsbench.bench.LoadReport;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.db.Target;
import org.ivsbench.run.LiveMetrics;
import org.ivsbench.run.NextStep;
import org.ivsbench.run.RunFolder;

/**
 * {@code experiment/trials} above 1: the experiment N times, each in its own {@code <benchmark>-experiment_*}
 * folder inside one {@code <benchmark>-trials_<stamp>/} folder, then trials.csv there ({@link TrialsCsv}). Trial 1
 * runs on the primary as the command left it; before each later trial the primary is re-created and re-loaded
 * with that trial's seed ({@link Trials#seed}), so every trial starts from a freshly loaded database as the
 * paper's repeated runs did. The first trial that does not finish (failure or interrupt) ends the series;
 * trials.csv then holds what the finished epochs measured.
 */
public final class ExperimentTrials {
    private ExperimentTrials() {}

    /** Runs the trials; returns the exit code of the last trial run. */
    public static int run(
            BenchmarkModule module,
            BenchmarkConfig config,
            ExperimentSpec spec,
            int trials,
            Target target,
            Path resultsParent,
            int windowSeconds,
            PrintStream out,
            List<String> commandLine,
            LiveMetrics metrics) {
        Path dir;
        try {
            dir = RunFolder.create(resultsParent, module.name() + "-trials");
        } catch (IOException e) {
            System.err.println("error: results folder: " + e.getMessage());
            return ExperimentRun.failedCode();
        }
        int code = 0;
        for (int k = 1; k <= trials; k++) {
            BenchmarkConfig trialConfig = config.toBuilder()
                    .randomSeed(Trials.seed(config.randomSeed(), k))
                    .build();
            out.println("Trial " + k + "/" + trials + " (randomSeed " + trialConfig.randomSeed() + ")");
            if (k > 1) {
                try {
                    module.create(trialConfig, target);
                    LoadReport r = module.load(trialConfig, target, LoadProgress.NONE);
                    out.printf("Re-loaded %,d records for trial %d%n", r.records(), k);
                } catch (Exception e) {
                    System.err.println("error: re-loading the primary for trial " + k + ": " + e.getMessage());
                    code = ExperimentRun.failedCode();
                    break;
                }
            }
            code = ExperimentRun.run(
                    module, trialConfig, spec, target, dir, windowSeconds, out, commandLine, false, metrics);
            if (code != 0) {
                break;
            }
        }
        try {
            TrialsCsv.write(epochsFiles(dir), dir.resolve("trials.csv"));
            out.println("Trials: " + dir + " (trials.csv)");
            out.println(NextStep.line(dir) + " - trial 1's report with Fig 16 from the trials");
        } catch (IOException e) {
            System.err.println("error: trials.csv: " + e.getMessage());
            return code == 0 ? ExperimentRun.failedCode() : code;
        }
        return code;
    }

    /** The trials' epochs.csv files in the order the trials ran (their folder names carry the start time). */
    static List<Path> epochsFiles(Path dir) throws IOException {
        List<Path> files = new ArrayList<>();
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : s.filter(Files::isDirectory).sorted().toList()) {
                files.add(p.resolve("epochs.csv"));
            }
        }
        return files;
    }
}
