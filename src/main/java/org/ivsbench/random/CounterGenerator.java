package org.ivsbench.random;

import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Hands out consecutive key numbers for inserts; one instance is shared by all terminals of a run, so no two
 * inserts use the same key. Thread-safe.
 *
 * <p>As YCSB's AcknowledgedCounterGenerator: {@link #lastValue()} is the highest number up to which every
 * insert has finished ({@link #acknowledge}, called whether the insert succeeded or not), so the "latest",
 * "zipfian" and "exponential" choosers that follow inserts never pick a key whose insert is still in flight
 * (a read of it would be a spurious not-found). At most {@link #WINDOW} inserts may be in flight at once.
 */
public final class CounterGenerator implements LongGenerator {
    /** Handed-out numbers not yet acknowledged that can be tracked (far more than terminals). */
    static final int WINDOW = 1 << 16;

    private final AtomicLong counter;
    private final long start;
    private final long first;
    private final long stride;
    private final Object lock = new Object();
    private boolean[] acknowledged; // ring over (limit, limit + WINDOW], allocated by the first acknowledge
    private volatile long limit;

    /** @param start the first number handed out (the record count, for inserts after the load). */
    public CounterGenerator(long start) {
        this(start, 0, 1);
    }

    /**
     * One shard's numbers: {@code start + first}, {@code start + first + stride}, ... so the shards of a run
     * ({@code --shard i/n}: first i, stride n) never insert the same key. Acknowledgement and {@link #lastValue()}
     * follow this shard's own inserts only: another shard's keys below it may not have been inserted yet.
     */
    public CounterGenerator(long start, long first, long stride) {
        if (stride < 1 || first < 0 || first >= stride) {
            throw new IllegalArgumentException("counter " + first + " of every " + stride);
        }
        this.start = start;
        this.first = first;
        this.stride = stride;
        this.counter = new AtomicLong(0);
        this.limit = -1;
    }

    public long next() {
        return start + first + counter.getAndIncrement() * stride;
    }

    /** Ignores the stream: the next number depends only on how many were handed out before. */
    @Override
    public long next(SplittableRandom r) {
        return next();
    }

    /** The insert of {@code number} (a number from {@link #next()}) has finished, whatever its outcome. */
    public void acknowledge(long number) {
        long value = (number - start - first) / stride;
        synchronized (lock) {
            if (value <= limit) {
                return; // already counted (acknowledged twice)
            }
            if (value > limit + WINDOW) {
                throw new IllegalStateException("more than " + WINDOW + " inserts in flight");
            }
            if (acknowledged == null) {
                acknowledged = new boolean[WINDOW];
            }
            acknowledged[slot(value)] = true;
            long l = limit;
            while (acknowledged[slot(l + 1)]) {
                acknowledged[slot(l + 1)] = false;
                l++;
            }
            limit = l;
        }
    }

    private static int slot(long value) {
        return (int) Math.floorMod(value, (long) WINDOW);
    }

    /** The highest number up to which every insert has finished (start - 1 before the first). */
    public long lastValue() {
        long l = limit;
        return l < 0 ? start - 1 : start + first + l * stride;
    }
}
