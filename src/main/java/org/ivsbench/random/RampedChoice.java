package org.ivsbench.random;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * A weighted choice whose weights move from one set to another: at ramp fraction f each weight is
 * {@code from + (to - from) * f}, so a phase's mix can shift gradually. Immutable and thread-safe; a choice
 * costs one pass over the weights.
 */
public final class RampedChoice {
    private final double[] from;
    private final double[] to;
    private final double[] delta;

    public RampedChoice(double[] from, double[] to) {
        if (from.length != to.length) {
            throw new IllegalArgumentException(
                    "weights differ in length: " + Arrays.toString(from) + " and " + Arrays.toString(to));
        }
        // Both ends must be valid weights; every mix between them then is too.
        new WeightedChoice(from);
        new WeightedChoice(to);
        this.from = from.clone();
        this.to = to.clone();
        this.delta = new double[from.length];
        for (int i = 0; i < from.length; i++) {
            delta[i] = to[i] - from[i];
        }
    }

    /** The weights at {@code fraction} (0 = from, 1 = to). */
    public double[] weightsAt(double fraction) {
        double[] w = new double[from.length];
        for (int i = 0; i < w.length; i++) {
            w[i] = weight(i, fraction);
        }
        return w;
    }

    /** An index drawn by the weights at {@code fraction}; an index whose weight is 0 there is never returned. */
    public int next(SplittableRandom r, double fraction) {
        double sum = 0;
        for (int i = 0; i < from.length; i++) {
            sum += weight(i, fraction);
        }
        double u = r.nextDouble() * sum;
        int last = 0;
        double cumulative = 0;
        for (int i = 0; i < from.length; i++) {
            double w = weight(i, fraction);
            if (w > 0) {
                cumulative += w;
                last = i;
                if (cumulative > u) {
                    return i;
                }
            }
        }
        return last; // rounding left u at the sum: the last index with weight
    }

    private double weight(int i, double fraction) {
        // At the ends exactly the given weights, so a weight that is 0 there is 0, not a rounding residue.
        double w = fraction <= 0 ? from[i] : fraction >= 1 ? to[i] : from[i] + delta[i] * fraction;
        return Math.max(0, w);
    }
}
