package org.ivsbench.random;

import java.util.SplittableRandom;

/**
 * YCSB's hotspot distribution: the first hotSetFraction of [lo, hi] receives hotOpnFraction of the
 * draws, uniformly; the rest of the range shares the remainder, uniformly. Immutable and thread-safe.
 */
public final class HotspotGenerator implements LongGenerator {
    public static final double DEFAULT_HOT_SET_FRACTION = 0.2;
    public static final double DEFAULT_HOT_OPN_FRACTION = 0.8;

    private final long lo;
    private final long hotInterval;
    private final long coldInterval;
    private final double hotOpnFraction;

    public HotspotGenerator(long lo, long hi) {
        this(lo, hi, DEFAULT_HOT_SET_FRACTION, DEFAULT_HOT_OPN_FRACTION);
    }

    public HotspotGenerator(long lo, long hi, double hotSetFraction, double hotOpnFraction) {
        if (hi < lo || hi - lo + 1 <= 0) {
            throw new IllegalArgumentException("bad hotspot range [" + lo + ", " + hi + "]");
        }
        requireFraction("hotSetFraction", hotSetFraction);
        requireFraction("hotOpnFraction", hotOpnFraction);
        long interval = hi - lo + 1;
        this.lo = lo;
        // Truncation as in YCSB: with 10 keys and 0.25, the hot set is 2 keys.
        this.hotInterval = (long) (interval * hotSetFraction);
        this.coldInterval = interval - hotInterval;
        this.hotOpnFraction = hotOpnFraction;
    }

    @Override
    public long next(SplittableRandom r) {
        // YCSB would divide by zero when a set is empty; here the empty set simply gets no draws.
        boolean hot = r.nextDouble() < hotOpnFraction;
        if ((hot && hotInterval > 0) || coldInterval == 0) {
            return lo + r.nextLong(hotInterval);
        }
        return lo + hotInterval + r.nextLong(coldInterval);
    }

    private static void requireFraction(String name, double f) {
        if (!(f >= 0 && f <= 1)) {
            throw new IllegalArgumentException(name + " must be in [0, 1], got " + f);
        }
    }
}
