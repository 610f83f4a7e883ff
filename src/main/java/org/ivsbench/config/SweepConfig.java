package org.ivsbench.config;

import java.util.List;

/**
 * {@code <sweep>}: the config's run repeated over terminal counts and operation counts, {@code trials} times per
 * point. An empty {@code terminals} keeps the config's {@code <terminals>}; an empty {@code counts} keeps the
 * phases as written. A count replaces the count of the config's single count phase (time phases are kept as
 * they are and run at every point). {@code reload}: the benchmark's tables are re-created and re-loaded before
 * every trial, so each trial starts from the same data.
 */
public record SweepConfig(List<Integer> terminals, List<Long> counts, int trials, boolean reload) {

    public SweepConfig {
        terminals = List.copyOf(terminals);
        counts = List.copyOf(counts);
    }

    /** Points in run order: terminals outermost, then counts, then trials. */
    public int points() {
        return Math.max(1, terminals.size()) * Math.max(1, counts.size()) * trials;
    }
}
