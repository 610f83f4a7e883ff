package org.ivsbench.engine;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/** The real clock ({@link Clock#SYSTEM}): the only place where the engine reads the time or waits. */
final class SystemClock implements Clock {
    /** What {@link #signalAll()} wakes: the engine's waits on its own threads, at phase boundaries only. */
    private final Object signal = new Object();

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }

    @Override
    public long wallMillis() {
        return System.currentTimeMillis();
    }

    @Override
    public void sleepUntil(long deadlineNanos) throws InterruptedException {
        // A parked thread wakes tens of microseconds (sometimes milliseconds) late, and that lateness would
        // be charged to the database as response time. Long waits therefore park until shortly before the
        // deadline and spin the rest; short waits (high rates per terminal) only park, because spinning
        // there would burn a core the database needs. What lateness remains is reported as start lag.
        boolean spin = deadlineNanos - System.nanoTime() >= SPIN_MIN_WAIT_NANOS;
        while (true) {
            long remaining = deadlineNanos - System.nanoTime();
            if (remaining <= 0) {
                return;
            }
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            if (!spin) {
                LockSupport.parkNanos(remaining);
            } else if (remaining > SPIN_NANOS) {
                LockSupport.parkNanos(remaining - SPIN_NANOS);
            } else {
                Thread.onSpinWait();
            }
        }
    }

    @Override
    public boolean awaitUntil(BooleanSupplier done, long deadlineNanos, long recheckNanos) throws InterruptedException {
        while (!done.getAsBoolean()) {
            // (nanoTime may be negative: MAX_VALUE - nanoTime would overflow.)
            long remaining = deadlineNanos == Long.MAX_VALUE ? Long.MAX_VALUE : deadlineNanos - System.nanoTime();
            if (remaining <= 0) {
                return false;
            }
            synchronized (signal) {
                // Checked again under the lock: a signalAll() since the check above is not lost.
                if (done.getAsBoolean()) {
                    return true;
                }
                TimeUnit.NANOSECONDS.timedWait(signal, Math.min(remaining, recheckNanos));
            }
        }
        return true;
    }

    @Override
    public void signalAll() {
        synchronized (signal) {
            signal.notifyAll();
        }
    }
}
