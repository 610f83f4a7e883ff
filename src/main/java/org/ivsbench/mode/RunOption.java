package org.ivsbench.mode;

import java.util.function.Predicate;

import org.ivsbench.config.Shard;

/** The options of the main command that not every {@link ExecutionMode} accepts. */
public enum RunOption {
    SHARD("--shard", o -> o.shard() != null),
    BENCHBASE_OUTPUTS("--benchbase-outputs", RunOptions::benchbaseOutputs),
    JSON_HISTOGRAMS("-jh", o -> o.jsonHistograms() != null),
    RESUME("--resume", RunOptions::resume),
    TRACE("--trace", o -> o.trace() != null),
    METRICS_LISTEN("--metrics-listen", o -> o.metricsListen() != null);

    private final String name;
    private final Predicate<RunOptions> given;

    RunOption(String name, Predicate<RunOptions> given) {
        this.name = name;
        this.given = given;
    }

    /** The option as the user types it. */
    public String optionName() {
        return name;
    }

    public boolean given(RunOptions options) {
        return given.test(options);
    }

    /** How an error line names the option: {@code --shard} with its value ({@code --shard 1/2}). */
    String label(Shard shard) {
        return this == SHARD ? name + " " + shard : name;
    }
}
