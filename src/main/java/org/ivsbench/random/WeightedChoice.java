package org.ivsbench.random;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Picks an index with probability proportional to its weight, e.g. a transaction type from a phase's
 * weights. Weights are percentages in configurations; checking that they sum to 100 is the config
 * layer's job, here they are normalised by their sum. Immutable and thread-safe.
 */
public final class WeightedChoice {
    private final double[] cumulative;

    public WeightedChoice(double... weights) {
        if (weights == null || weights.length == 0) {
            throw new IllegalArgumentException("no weights given");
        }
        cumulative = new double[weights.length];
        double sum = 0;
        for (int i = 0; i < weights.length; i++) {
            double w = weights[i];
            if (!(w >= 0) || Double.isInfinite(w)) {
                throw new IllegalArgumentException("weight " + i + " must be a finite number >= 0, got " + w
                        + " (weights " + Arrays.toString(weights) + ")");
            }
            sum += w;
            cumulative[i] = sum;
        }
        if (!(sum > 0)) {
            throw new IllegalArgumentException("all weights are zero: " + Arrays.toString(weights));
        }
    }

    /** An index whose weight is > 0; zero-weight indexes are never returned. */
    public int next(SplittableRandom r) {
        double u = r.nextDouble() * cumulative[cumulative.length - 1];
        // First index whose cumulative weight exceeds u; a zero weight repeats its predecessor's
        // cumulative value and so can never be the first to exceed it.
        int lo = 0;
        int hi = cumulative.length - 1;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (cumulative[mid] > u) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo;
    }

    public int size() {
        return cumulative.length;
    }
}
