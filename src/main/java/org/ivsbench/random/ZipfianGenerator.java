package org.ivsbench.random;

import java.util.SplittableRandom;

/**
 * Zipfian over [min, max] by the method of Gray et al., "Quickly generating billion-record synthetic
 * databases" (SIGMOD 1994), with YCSB's constants: item min is the most popular, then min+1, ...
 * This is YCSB's unscrambled generator; YCSB's "zipfian" request distribution is
 * {@link ScrambledZipfianGenerator}.
 *
 * <p>Immutable and thread-safe. Construction without a precomputed zeta costs O(max - min); a terminal
 * builds its generator once per phase, which is acceptable up to about 10^7 items (pass a
 * {@link ZetaCache} to pay it once per run).
 */
public final class ZipfianGenerator implements LongGenerator {
    /** YCSB's default skew ("zipfian constant"). */
    public static final double ZIPFIAN_CONSTANT = 0.99;

    private final long min;
    private final long itemCount;
    private final Shape shape;

    public ZipfianGenerator(long min, long max) {
        this(min, max, ZIPFIAN_CONSTANT);
    }

    public ZipfianGenerator(long min, long max, double theta) {
        this(min, max, theta, Zeta.zeta(count(min, max), theta));
    }

    public ZipfianGenerator(long min, long max, double theta, ZetaCache cache) {
        this(min, max, theta, cache.zeta(count(min, max), theta));
    }

    /** @param zetan zeta(max - min + 1, theta), precomputed (as YCSB does for its scrambled variant). */
    public ZipfianGenerator(long min, long max, double theta, double zetan) {
        this.min = min;
        this.itemCount = count(min, max);
        this.shape = new Shape(theta, itemCount, zetan);
    }

    @Override
    public long next(SplittableRandom r) {
        return min + shape.rank(r.nextDouble(), itemCount);
    }

    public long itemCount() {
        return itemCount;
    }

    public double zetan() {
        return shape.zetan;
    }

    private static long count(long min, long max) {
        if (max < min) {
            throw new IllegalArgumentException("empty Zipfian range [" + min + ", " + max + "]");
        }
        long n = max - min + 1;
        if (n <= 0) {
            throw new IllegalArgumentException("Zipfian range too large: [" + min + ", " + max + "]");
        }
        return n;
    }

    /**
     * The constants of one Zipfian and the mapping from a uniform u to a rank. Separate from the
     * generator so {@link SkewedLatestGenerator} can re-derive it as its item count grows.
     */
    static final class Shape {
        final double theta;
        final double zetan;
        private final double alpha;
        private final double eta;
        private final double secondThreshold;

        /**
         * @param etaItems the item count used in eta. YCSB keeps the count the generator was built
         *                 with here even after zeta(n) grows; {@link SkewedLatestGenerator} relies on
         *                 passing the original count to match it.
         */
        Shape(double theta, long etaItems, double zetan) {
            if (!(theta > 0 && theta < 1)) {
                throw new IllegalArgumentException("Zipfian theta must be in (0, 1), got " + theta);
            }
            this.theta = theta;
            this.zetan = zetan;
            this.alpha = 1.0 / (1.0 - theta);
            double zeta2 = Zeta.zeta(2, theta);
            this.eta = (1 - Math.pow(2.0 / etaItems, 1 - theta)) / (1 - zeta2 / zetan);
            this.secondThreshold = 1.0 + Math.pow(0.5, theta);
        }

        /** Rank in [0, itemCount) for u in [0, 1): the closed form of Gray et al. */
        long rank(double u, long itemCount) {
            double uz = u * zetan;
            if (uz < 1.0) {
                return 0;
            }
            if (uz < secondThreshold) {
                return 1;
            }
            // For u within ~1e-14 of 1 the power rounds to 1.0 and the formula yields itemCount itself.
            return Math.min(itemCount - 1, (long) (itemCount * Math.pow(eta * u - eta + 1, alpha)));
        }
    }
}
