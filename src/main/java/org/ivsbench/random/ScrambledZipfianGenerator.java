package org.ivsbench.random;

import java.util.SplittableRandom;
import java.util.function.LongSupplier;

/**
 * YCSB's "zipfian" request distribution: a Zipfian rank over a fixed universe of 10^10 + 1 items,
 * scattered over [min, max] by FNV-64. The popular keys are therefore spread across the key space
 * rather than clustered at min, and which keys are hot depends only on the item count, not on the
 * seed: the same records are hot in every run and every database, as in YCSB.
 *
 * <p>Immutable and thread-safe; construction is O(1) because zeta of the universe is a constant.
 */
public final class ScrambledZipfianGenerator implements LongGenerator {
    /** YCSB's universe: ranks are drawn from [0, ITEM_COUNT], i.e. ITEM_COUNT + 1 items. */
    public static final long ITEM_COUNT = 10_000_000_000L;
    /** YCSB's precomputed zeta for its universe at theta 0.99 (used as-is, including for n = 10^10 + 1). */
    public static final double ZETAN = 26.46902820178302;

    private final long min;
    private final long itemCount;
    private final ZipfianGenerator ranks;

    public ScrambledZipfianGenerator(long min, long max) {
        if (max < min || max - min + 1 <= 0) {
            throw new IllegalArgumentException("bad scrambled Zipfian range [" + min + ", " + max + "]");
        }
        this.min = min;
        this.itemCount = max - min + 1;
        this.ranks = new ZipfianGenerator(0, ITEM_COUNT, ZipfianGenerator.ZIPFIAN_CONSTANT, ZETAN);
    }

    @Override
    public long next(SplittableRandom r) {
        return min + Fnv.fnv64(ranks.next(r)) % itemCount;
    }

    public long itemCount() {
        return itemCount;
    }

    /**
     * Keys in [0, recordCount) as YCSB's CoreWorkload draws them when the workload does not insert:
     * CoreWorkload builds the generator over [0, recordCount] (one item too many) and redraws the key
     * that does not exist. The extra item shifts which keys collide modulo the item count, so it is
     * kept: without it the hot set and its shares would differ from YCSB's.
     */
    public static LongGenerator forCoreWorkload(long recordCount) {
        requirePositive(recordCount);
        long last = recordCount - 1;
        return new RedrawAbove(new ScrambledZipfianGenerator(0, recordCount), () -> last);
    }

    /**
     * As CoreWorkload does when the workload inserts: the item count is enlarged by the expected number
     * of new keys (YCSB uses operationcount * insertproportion * 2) and any key above the highest key
     * inserted so far is redrawn.
     */
    public static LongGenerator forCoreWorkload(
            long recordCount, long expectedNewKeys, CounterGenerator insertCounter) {
        requirePositive(recordCount);
        if (expectedNewKeys < 0) {
            throw new IllegalArgumentException("expectedNewKeys must be >= 0, got " + expectedNewKeys);
        }
        return new RedrawAbove(
                new ScrambledZipfianGenerator(0, recordCount + expectedNewKeys), insertCounter::lastValue);
    }

    /**
     * CoreWorkload's expected number of new keys for a run of {@code operationCount} operations of which the
     * share {@code insertProportion} inserts: twice the expected inserts, truncated as YCSB truncates it.
     */
    public static long expectedNewKeys(long operationCount, double insertProportion) {
        if (operationCount < 0 || !(insertProportion >= 0 && insertProportion <= 1)) {
            throw new IllegalArgumentException(
                    "bad operation count " + operationCount + " or insert proportion " + insertProportion);
        }
        return (long) (operationCount * insertProportion * 2.0);
    }

    private static void requirePositive(long recordCount) {
        if (recordCount <= 0) {
            throw new IllegalArgumentException("recordCount must be > 0, got " + recordCount);
        }
    }

    /** CoreWorkload's guard: keys that do not exist (yet) are drawn again. */
    static final class RedrawAbove implements LongGenerator {
        private final LongGenerator inner;
        private final LongSupplier maxKey;

        RedrawAbove(LongGenerator inner, LongSupplier maxKey) {
            this.inner = inner;
            this.maxKey = maxKey;
        }

        @Override
        public long next(SplittableRandom r) {
            long max = maxKey.getAsLong();
            long k;
            do {
                k = inner.next(r);
            } while (k > max || k < 0);
            return k;
        }
    }
}
