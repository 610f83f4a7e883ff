package org.ivsbench.config;

import java.util.List;
import java.util.Map;

/**
 * A phase's gradual shift ({@code works/work/ramp}): over the measured part of a time phase its settings move
 * from the phase's own (rate, weights, benchmark parameters such as the key distribution) to these targets.
 * Warmup runs at the phase's own settings; the ramp starts when measurement does. {@code LINEAR} moves
 * continuously; {@code STEP} holds each setting for {@code everySeconds}, in equal steps from the phase's own
 * setting (first step) to the target (last step).
 *
 * @param rate       target operations per second, or NaN when the rate does not ramp
 * @param weights    target weights (percentages aligned with the transaction types), empty when the mix does
 *                   not ramp
 * @param parameters target benchmark phase parameters by name (ycsbivs: {@code distribution}), as written
 */
public record RampConfig(
        Shape shape, long everySeconds, double rate, List<Double> weights, Map<String, String> parameters) {

    public enum Shape {
        LINEAR,
        STEP
    }

    public RampConfig {
        weights = List.copyOf(weights);
        parameters = Map.copyOf(parameters);
    }

    public boolean rampsRate() {
        return !Double.isNaN(rate);
    }

    public boolean rampsWeights() {
        return !weights.isEmpty();
    }

    /** Number of settings a step ramp over {@code lengthSeconds} goes through (at least 2, checked by the loader). */
    public long steps(long lengthSeconds) {
        return (lengthSeconds + everySeconds - 1) / everySeconds;
    }

    /**
     * How far the ramp is, 0 (the phase's own settings) to 1 (the targets), at {@code elapsedSeconds} after the
     * measured start of a phase measured for {@code lengthSeconds}; 0 during warmup (negative elapsed).
     */
    public double fraction(double elapsedSeconds, long lengthSeconds) {
        if (!(elapsedSeconds > 0)) {
            return 0;
        }
        if (shape == Shape.LINEAR) {
            return Math.min(1.0, elapsedSeconds / lengthSeconds);
        }
        long steps = steps(lengthSeconds);
        long step = Math.min((long) (elapsedSeconds / everySeconds), steps - 1);
        return (double) step / (steps - 1);
    }

    /** {@code from} moved by {@code fraction} of the way to {@code to}. */
    public static double between(double from, double to, double fraction) {
        return fraction >= 1 ? to : from + (to - from) * fraction;
    }
}
