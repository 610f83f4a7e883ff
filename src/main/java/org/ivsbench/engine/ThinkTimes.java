package org.ivsbench.engine;

import java.util.List;

import org.ivsbench.config.ConfigException;
import org.ivsbench.config.PhaseConfig;
import org.ivsbench.random.LengthDistribution;

/**
 * A phase's think time as a distribution ({@code <thinkTime>exponential(mean=100)</thinkTime>}): whole
 * milliseconds drawn by the length distributions' samplers (min and max in ms; max defaults to one hour). With
 * an open rate this makes the loop semi-open: a terminal thinks after each operation before it takes its next
 * arrival.
 */
public final class ThinkTimes {
    /** The longest think time a distribution may draw, one hour. */
    static final int MAX_MS = 3_600_000;

    private ThinkTimes() {}

    /** Checks every phase's think-time expression before anything runs. */
    public static void validate(List<PhaseConfig> phases) throws ConfigException {
        for (PhaseConfig phase : phases) {
            of(phase);
        }
    }

    /** The phase's think-time distribution, or null when its think time is the constant {@code thinkTimeMs}. */
    static LengthDistribution of(PhaseConfig phase) throws ConfigException {
        String text = phase.thinkTimeDistribution();
        if (text == null) {
            return null;
        }
        String path = "works/work[" + (phase.index() + 1) + "]/thinkTime";
        try {
            LengthDistribution d = LengthDistribution.parse(text, 0, 0, MAX_MS, MAX_MS);
            if (d.constant()) {
                throw new IllegalArgumentException("give a number of milliseconds for a constant think time");
            }
            return d;
        } catch (IllegalArgumentException e) {
            throw new ConfigException(
                    path,
                    "'" + text + "': " + e.getMessage() + " (a think time in milliseconds: a whole number or a"
                            + " distribution expression)");
        }
    }
}
