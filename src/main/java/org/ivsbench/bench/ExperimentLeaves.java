package org.ivsbench.bench;

import java.util.Map;

import org.ivsbench.config.ConfigException;

/**
 * Reading leaves of the flattened {@code <experiment>} section, for the experiment runner and the benchmarks
 * alike, so every error names {@code experiment/<leaf>} and quotes the value the same way.
 */
public final class ExperimentLeaves {
    private ExperimentLeaves() {}

    /** The error path of a leaf: {@code experiment/<leaf>}. */
    public static String path(String leaf) {
        return "experiment/" + leaf;
    }

    public static long number(String text, String leaf) throws ConfigException {
        try {
            return Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            throw new ConfigException(path(leaf), "'" + text + "' is not a whole number");
        }
    }

    /** A whole number in [1, max]; {@code dflt} when the leaf is absent, which is an error when null. */
    public static long positive(Map<String, String> s, String leaf, Long dflt, long max) throws ConfigException {
        String text = s.get(leaf);
        if (text == null) {
            if (dflt == null) {
                throw new ConfigException(path(leaf), "missing: the experiment needs it");
            }
            return dflt;
        }
        long v = number(text, leaf);
        if (v < 1 || v > max) {
            throw new ConfigException(path(leaf), "'" + text + "' must be between 1 and " + max);
        }
        return v;
    }
}
