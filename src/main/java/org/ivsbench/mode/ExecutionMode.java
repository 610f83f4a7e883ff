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
import org.ivsbench.run.RunFolder;

/**
 * What an invocation runs, chosen once: the main command's config picks phases ({@code <works>}), an experiment
 * (with {@code experiment/trials} above 1: trials) or a sweep; tenants and replay are subcommands. Each mode
 * declares the {@link RunOption}s it refuses, in the order they are checked, with the one error line each gives;
 * every other option it accepts.
 */
public enum ExecutionMode {
    PHASES(null),
    EXPERIMENT(
            "experiment",
            refuse(RunOption.SHARD, "%s: not supported with an <experiment> (shard a run of <works> phases)"),
            refuse(
                    RunOption.BENCHBASE_OUTPUTS,
                    "%s: not supported with an <experiment>: use epochs.csv and each phase's summary.json"),
            refuse(
                    RunOption.JSON_HISTOGRAMS,
                    "%s: not supported with an <experiment>: use epochs.csv and each phase's summary.json"),
            refuse(RunOption.TRACE, "%s: not supported with an <experiment> (trace a run of <works> phases)")),
    TRIALS(
            "experiment",
            refuse(RunOption.SHARD, "%s: not supported with an <experiment> (shard a run of <works> phases)"),
            refuse(
                    RunOption.BENCHBASE_OUTPUTS,
                    "%s: not supported with an <experiment>: use epochs.csv and each phase's summary.json"),
            refuse(
                    RunOption.JSON_HISTOGRAMS,
                    "%s: not supported with an <experiment>: use epochs.csv and each phase's summary.json"),
            refuse(RunOption.TRACE, "%s: not supported with an <experiment> (trace a run of <works> phases)"),
            refuse(
                    RunOption.RESUME,
                    "%s: not supported with experiment/trials %d (resume one trial's folder with a config without"
                            + " <trials>)")),
    SWEEP(
            "sweep",
            refuse(RunOption.SHARD, "%s: not supported with a <sweep> (shard a run of <works> phases)"),
            refuse(RunOption.RESUME, "%s: not supported with a <sweep>: use sweep.csv and each point's summary.json"),
            refuse(
                    RunOption.BENCHBASE_OUTPUTS,
                    "%s: not supported with a <sweep>: use sweep.csv and each point's summary.json"),
            refuse(
                    RunOption.JSON_HISTOGRAMS,
                    "%s: not supported with a <sweep>: use sweep.csv and each point's summary.json"),
            refuse(RunOption.TRACE, "%s: not supported with a <sweep> (trace a run of <works> phases)")),
    /** The tenants subcommand: several configs of {@link #PHASES} at once; none of these options is its. */
    TENANTS(
            null,
            refuse(RunOption.SHARD, "%s: not an option of tenants"),
            refuse(RunOption.BENCHBASE_OUTPUTS, "%s: not an option of tenants"),
            refuse(RunOption.JSON_HISTOGRAMS, "%s: not an option of tenants"),
            refuse(RunOption.RESUME, "%s: not an option of tenants"),
            refuse(RunOption.TRACE, "%s: not an option of tenants")),
    /** The replay subcommand: its --trace is the trace it reads. */
    REPLAY(
            null,
            refuse(RunOption.SHARD, "%s: not an option of replay"),
            refuse(RunOption.BENCHBASE_OUTPUTS, "%s: not an option of replay"),
            refuse(RunOption.JSON_HISTOGRAMS, "%s: not an option of replay"),
            refuse(RunOption.RESUME, "%s: not an option of replay"));

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
            PrintStream out) {}

    private final String element;
    private final List<Refusal> refusals;

    ExecutionMode(String element, Refusal... refusals) {
        this.element = element;
        this.refusals = List.of(refusals);
    }

    private static Refusal refuse(RunOption option, String message) {
        return new Refusal(option, message);
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

    /** The options this mode refuses, in the order {@link #check} tries them. */
    public List<RunOption> refused() {
        List<RunOption> list = new ArrayList<>();
        refusals.forEach(r -> list.add(r.option()));
        return list;
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
                        .execute(o.commandLine(), RunFolder.digest(redacted), redacted);
            }
            case SWEEP -> {
                String redacted = ConfigRedactor.redactedXml(o.config());
                yield new SweepRun(e.module(), e.config(), e.target(), o, e.out(), o.load())
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
                        o.resume());
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
                        o.commandLine());
            case TENANTS, REPLAY -> throw new IllegalStateException(this.toString());
        };
    }
}
