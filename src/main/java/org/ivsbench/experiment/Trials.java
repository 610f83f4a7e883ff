package org.ivsbench.experiment;

import java.util.Map;

import org.ivsbench.config.ConfigException;
import org.ivsbench.config.LeafView;

/**
 * {@code experiment/trials}: how many times the whole experiment runs (the paper's Fig 16 is a mean over 5).
 * Trial {@code k} runs with {@code randomSeed + (k - 1) x} {@value #SEED_STEP}, so trial 1 is the experiment as
 * configured and no two trials share a phase seed (an epoch's seeds stay within {@code epoch x 1000 + 9}).
 */
public final class Trials {
    static final String LEAF = "trials";
    static final long SEED_STEP = 1_000_000L;
    static final long MAX = 1000;

    private Trials() {}

    /** The number of trials of a flattened experiment section: 1 when absent. */
    public static int of(Map<String, String> section) throws ConfigException {
        return (int) LeafView.of(section, "experiment").longBetween(LEAF, 1, 1, MAX);
    }

    /** The base seed of trial {@code k} (1-based). */
    static long seed(long randomSeed, int k) {
        return randomSeed + (k - 1) * SEED_STEP;
    }
}
