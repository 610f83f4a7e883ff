package org.ivsbench.engine;

import java.util.function.BooleanSupplier;

/**
 * Every time read and every wait of the engine, injectable so that rate control and phase switching can be
 * tested on a virtual clock. The engine's threads (the manager and the terminals) are attached to the clock:
 * a virtual clock moves on only when each attached thread waits on it, and then jumps to the earliest
 * deadline. Hence the engine waits for its own threads through {@link #awaitUntil} too (the next phase, a
 * count phase's last operation, the terminals' exit), never on a monitor, a latch or a join: an attached
 * thread blocked where the clock cannot see it counts as running, and a virtual clock would stand still.
 */
public interface Clock {
    /** Monotonic time in nanoseconds. */
    long nanoTime();

    /** Wall-clock time, epoch milliseconds (phase timestamps, aligned with the statistics' windows). */
    long wallMillis();

    /** Sleeps until {@link #nanoTime()} reaches {@code deadlineNanos} (returns at once if it has). */
    void sleepUntil(long deadlineNanos) throws InterruptedException;

    /**
     * Waits until {@code done} holds (true returned) or {@link #nanoTime()} reaches {@code deadlineNanos}
     * (false; {@code Long.MAX_VALUE} is none). {@code done} is checked at least every {@code recheckNanos}, and
     * at once after {@link #signalAll()}; it must only read state that is safe to read from any thread, and
     * once true it must stay true. For the engine's waits on its own threads, where the precision of
     * {@link #sleepUntil} is not needed.
     */
    boolean awaitUntil(BooleanSupplier done, long deadlineNanos, long recheckNanos) throws InterruptedException;

    /** Something an {@link #awaitUntil} may be waiting for has changed: its waiters check now. */
    void signalAll();

    /** Counts {@code thread} among the engine's threads from now on; call before it starts. */
    default void attach(Thread thread) {}

    /** {@code thread} (attached before) waits on this clock no more. */
    default void detach(Thread thread) {}

    /**
     * How long before a deadline the system clock stops parking and spins: longer than a park usually overshoots
     * (measured by scripts/bench/rate-accuracy.sh; figures in docs/performance.md).
     */
    long SPIN_NANOS = 100_000;

    /** Only waits at least this long end in a spin, so spinning takes at most a tenth of a terminal's time. */
    long SPIN_MIN_WAIT_NANOS = 1_000_000;

    Clock SYSTEM = new SystemClock();
}
