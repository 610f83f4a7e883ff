package org.ivsbench.random;

import java.util.SplittableRandom;

/**
 * YCSB's exponential distribution: {@code percentile} percent of the draws fall below {@code range}.
 * Draws are offsets skewed toward 0; YCSB's CoreWorkload turns them into keys counted back from the
 * latest insert (see {@link Distributions}). Immutable and thread-safe.
 */
public final class ExponentialGenerator implements LongGenerator {
    public static final double DEFAULT_PERCENTILE = 95;
    public static final double DEFAULT_FRACTION = 0.8571428571;

    private final double gamma;
    private final long limit;

    /**
     * @param range the value below which {@code percentile} percent of raw draws fall
     * @param limit draws at or above it are redrawn, as CoreWorkload redraws keys that do not exist
     */
    public ExponentialGenerator(double percentile, double range, long limit) {
        if (!(percentile > 0 && percentile < 100)) {
            throw new IllegalArgumentException("percentile must be in (0, 100), got " + percentile);
        }
        if (!(range > 0)) {
            throw new IllegalArgumentException("range must be > 0, got " + range);
        }
        if (limit <= 0) {
            throw new IllegalArgumentException("limit must be > 0, got " + limit);
        }
        this.gamma = -Math.log(1.0 - percentile / 100.0) / range;
        this.limit = limit;
    }

    /** YCSB's defaults: 95 % of draws below 0.8571428571 * recordCount, values in [0, recordCount). */
    public static ExponentialGenerator forRecordCount(long recordCount) {
        return new ExponentialGenerator(DEFAULT_PERCENTILE, recordCount * DEFAULT_FRACTION, recordCount);
    }

    @Override
    public long next(SplittableRandom r) {
        return nextBelow(r, limit);
    }

    /** A draw in [0, limitExclusive): for a limit that grows with inserts. */
    public long nextBelow(SplittableRandom r, long limitExclusive) {
        if (limitExclusive <= 0) {
            throw new IllegalArgumentException("limitExclusive must be > 0, got " + limitExclusive);
        }
        long v;
        do {
            // u = 0 gives +infinity, which saturates to Long.MAX_VALUE and is redrawn.
            v = (long) (-Math.log(r.nextDouble()) / gamma);
        } while (v >= limitExclusive);
        return v;
    }
}
