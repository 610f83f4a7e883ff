package org.ivsbench.mode;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

import org.ivsbench.bench.BenchmarkModule;
import org.ivsbench.bench.LoadReport;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.ConfigException;
import org.ivsbench.config.ConfigRedactor;
import org.ivsbench.config.Shard;
import org.ivsbench.db.Target;
import org.ivsbench.experiment.ExperimentRun;
import org.ivsbench.experiment.ExperimentSpec;
import org.ivsbench.experiment.ExperimentTrials;
import org.ivsbench.run.LiveMetrics;

/**
 * What an invocation runs, chosen once: the main command's config picks phases ({@code <works>}), an experiment
 * (with {@code experiment/trials} above 1: trials) or a sweep; tenants and replay are subcommands. Each mode
 * declares the {@link RunOption}s it refuses, in the order they are checked, with the one error line each gives;
 * every other option it accepts.
 */
public enum ExecutionMode {
    PHASES(
            null,
            List.of(new Refusal(
                    RunOption.RESUME,
                    "%s: continues an interrupted <experiment>; this config runs <works> phases (run it again"
                            + " instead)"))),
    EXPERIMENT(
            "experiment",
            notWithWorks(
                    "an <experiment>",
                    "epochs.csv and each phase's summary.json",
                    RunOption.BENCHBASE_OUTPUTS,
                    RunOption.JSON_HISTOGRAMS)),
    TRIALS(
            "experiment",
            notWithWorks(
                    "an <experiment>",
                    "epochs.csv and each phase's summary.json",
                    RunOption.BENCHBASE_OUTPUTS,
                    RunOption.JSON_HISTOGRAMS),
            new Refusal(
                    RunOption.RESUME,
                    "%s: not supported with experiment/trials %d (resume one trial's folder with a config without"
                            + " <trials>)")),
    SWEEP(
            "sweep",
            notWithWorks(
                    "a <sweep>",
                    "sweep.csv and each point's summary.json",
                    RunOption.RESUME,
                    RunOption.BENCHBASE_OUTPUTS,
                    RunOption.JSON_HISTOGRAMS)),
    /** The tenants subcommand: several configs of {@link #PHASES} at once; none of these options is its. */
    TENANTS(
            null,
            notOptionsOf(
                    "tenants",
                    RunOption.SHARD,
                    RunOption.BENCHBASE_OUTPUTS,
                    RunOption.JSON_HISTOGRAMS,
                    RunOption.RESUME,
                    RunOption.TRACE,
                    RunOption.METRICS_LISTEN)),
    /** The replay subcommand: its --trace is the trace it reads. */
    REPLAY(
            null,
            notOptionsOf(
                    "replay",
                    RunOption.SHARD,
                    RunOption.BENCHBASE_OUTPUTS,
                    RunOption.JSON_HISTOGRAMS,
                    RunOption.RESUME,
                    RunOption.METRICS_LISTEN));

    /** An option the mode refuses and its error line ({@code %s} the option, {@code %d} the trials). */
    record Refusal(RunOption option, String message) {}

    /** What the mode's --execute needs: the invocation's module, config, database, options and load. */
    public record Execution(
            BenchmarkModule module,
            BenchmarkConfig config,
            ExperimentSpec experiment,
            int trials,
            Target target,
            RunOptions options,
            LoadReport loaded,
            LiveMetrics metrics,
            PrintStream out) {}

    private final String element;
    private final List<Refusal> refusals;

    ExecutionMode(String element, List<Refusal> refusals, Refusal... more) {
        this.element = element;
        List<Refusal> all = new ArrayList<>(refusals);
        all.addAll(List.of(more));
        this.refusals = List.copyOf(all);
    }

    /**
     * What a mode that is not a run of {@code <works>} phases refuses: --shard, then the options whose files it
     * does not write ({@code results} are the ones to use instead), then --trace.
     */
    private static List<Refusal> notWithWorks(String mode, String results, RunOption... files) {
        List<Refusal> list = new ArrayList<>();
        list.add(new Refusal(RunOption.SHARD, "%s: not supported with " + mode + " (shard a run of <works> phases)"));
        for (RunOption o : files) {
            list.add(new Refusal(o, "%s: not supported with " + mode + ": use " + results));
        }
        list.add(new Refusal(RunOption.TRACE, "%s: not supported with " + mode + " (trace a run of <works> phases)"));
        return list;
    }

    /** A subcommand's refusals: options of the main command it does not have. */
    private static List<Refusal> notOptionsOf(String subcommand, RunOption... options) {
        List<Refusal> list = new ArrayList<>();
        for (RunOption o : options) {
            list.add(new Refusal(o, "%s: not an option of " + subcommand));
        }
        return list;
    }

    /** The main command's mode for {@code config}: its {@code <experiment>} ({@code trials} of it) or {@code <sweep>}. */
    public static ExecutionMode of(BenchmarkConfig config, int trials) {
        if (config.experiment() != null) {
            return trials > 1 ? TRIALS : EXPERIMENT;
        }
        return config.sweep() != null ? SWEEP : PHASES;
    }

    /** The config section that makes the mode ({@code experiment}, {@code sweep}); null for the others. */
    public String element() {
        return element;
    }

    public boolean accepts(RunOption option) {
        return refusals.stream().noneMatch(r -> r.option() == option);
    }

    /** The first refused option given, as one error line; {@code shard} and {@code trials} word it. */
    public void check(RunOptions options, Shard shard, int trials) throws UsageException {
        for (Refusal r : refusals) {
            if (r.option().given(options)) {
                throw new UsageException(String.format(r.message(), r.option().label(shard), trials));
            }
        }
    }

    /** Runs the main command's --execute in this mode; returns the exit code. */
    public int execute(Execution e) throws IOException, ConfigException {
        if (this == TENANTS || this == REPLAY) {
            throw new IllegalStateException(this + " is a subcommand of its own");
        }
        RunOptions o = e.options();
        return switch (this) {
            case PHASES -> {
                String redacted = ConfigRedactor.redactedXml(o.config());
                yield new PhasesRun(e.module(), e.config(), e.target(), o, e.out())
                        .loaded(e.loaded())
                        .metrics(e.metrics())
                        .execute(o.commandLine(), redacted);
            }
            case SWEEP -> {
                String redacted = ConfigRedactor.redactedXml(o.config());
                yield new SweepRun(e.module(), e.config(), e.target(), o, e.out(), o.load())
                        .metrics(e.metrics())
                        .execute(o.commandLine(), redacted);
            }
            case EXPERIMENT ->
                ExperimentRun.run(
                        e.module(),
                        e.config(),
                        e.experiment(),
                        e.target(),
                        o.directory(),
                        o.windowSeconds(),
                        e.out(),
                        o.commandLine(),
                        o.resume(),
                        e.metrics());
            case TRIALS ->
                ExperimentTrials.run(
                        e.module(),
                        e.config(),
                        e.experiment(),
                        e.trials(),
                        e.target(),
                        o.directory(),
                        o.windowSeconds(),
                        e.out(),
                        o.commandLine(),
                        e.metrics());
            case TENANTS, REPLAY -> throw new IllegalStateException(this.toString());
        };
    }
}
