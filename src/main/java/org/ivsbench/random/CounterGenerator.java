package org.ivsbench.random;

import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Hands out consecutive key numbers for inserts; one instance is shared by all terminals of a run, so
 * no two inserts use the same key. Thread-safe.
 *
 * <p>Unlike YCSB's AcknowledgedCounterGenerator, {@link #lastValue()} counts a number as soon as it is
 * handed out, not when its insert has committed, so a "latest" read may briefly target a record whose
 * insert is still in flight.
 */
public final class CounterGenerator implements LongGenerator {
    private final AtomicLong counter;

    /** @param start the first number handed out (the record count, for inserts after the load). */
    public CounterGenerator(long start) {
        this.counter = new AtomicLong(start);
    }

    public long next() {
        return counter.getAndIncrement();
    }

    /** Ignores the stream: the next number depends only on how many were handed out before. */
    @Override
    public long next(SplittableRandom r) {
        return next();
    }

    /** The highest number handed out so far (start - 1 before the first). */
    public long lastValue() {
        return counter.get() - 1;
    }
}
