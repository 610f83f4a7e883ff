package org.ivsbench.random;

import java.util.SplittableRandom;

/** Uniform over [lo, hi], both inclusive. Immutable and thread-safe. */
public final class UniformLongGenerator implements LongGenerator {
    private final long lo;
    private final long hi;

    public UniformLongGenerator(long lo, long hi) {
        if (hi < lo) {
            throw new IllegalArgumentException("empty uniform range [" + lo + ", " + hi + "]");
        }
        this.lo = lo;
        this.hi = hi;
    }

    @Override
    public long next(SplittableRandom r) {
        // SplittableRandom's bounded draw is unbiased, unlike YCSB's abs(nextLong()) % n; the
        // distribution is the same up to that bias.
        if (hi == Long.MAX_VALUE) {
            return lo == Long.MIN_VALUE ? r.nextLong() : r.nextLong(lo - 1, hi) + 1;
        }
        return r.nextLong(lo, hi + 1);
    }
}
