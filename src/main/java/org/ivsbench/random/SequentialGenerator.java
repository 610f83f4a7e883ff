package org.ivsbench.random;

import java.util.SplittableRandom;

/**
 * Cycles lo, lo+1, ..., hi, lo, ... and ignores the random stream.
 *
 * <p>Mutable, one per terminal. YCSB shares one counter across its threads, so together they sweep
 * the range once per cycle; here each terminal sweeps it on its own, which keeps a terminal's sequence
 * independent of scheduling (reproducible) at the cost of terminals touching the same keys. Give
 * terminals different starting offsets to stagger them.
 */
public final class SequentialGenerator implements LongGenerator {
    private final long lo;
    private final long interval;
    private long position;

    public SequentialGenerator(long lo, long hi) {
        this(lo, hi, 0);
    }

    /** @param startOffset where in the cycle to begin (taken modulo the range size). */
    public SequentialGenerator(long lo, long hi, long startOffset) {
        if (hi < lo || hi - lo + 1 <= 0) {
            throw new IllegalArgumentException("bad sequential range [" + lo + ", " + hi + "]");
        }
        this.lo = lo;
        this.interval = hi - lo + 1;
        this.position = Math.floorMod(startOffset, interval);
    }

    @Override
    public long next(SplittableRandom r) {
        long value = lo + position;
        position = position + 1 == interval ? 0 : position + 1;
        return value;
    }
}
