package org.ivsbench.engine;

/** Monotonic time and sleeping, injectable so that rate control can be tested without waiting. */
public interface Clock {
    long nanoTime();

    /** Sleeps until {@link #nanoTime()} reaches {@code deadlineNanos} (returns at once if it has). */
    void sleepUntil(long deadlineNanos) throws InterruptedException;

    /** How long before a deadline the system clock stops parking and spins. */
    long SPIN_NANOS = 60_000;

    Clock SYSTEM = new Clock() {
        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public void sleepUntil(long deadlineNanos) throws InterruptedException {
            // Park until shortly before the deadline, then spin: a parked thread wakes tens of microseconds
            // (on a busy or idle VM, sometimes milliseconds) late, and that lateness would be charged to
            // the database as response time. The spin is bounded (SPIN_NANOS per operation) so the client
            // does not steal a core from the database. What lateness remains is reported as start lag.
            while (true) {
                long remaining = deadlineNanos - System.nanoTime();
                if (remaining <= 0) {
                    return;
                }
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
                if (remaining > SPIN_NANOS) {
                    java.util.concurrent.locks.LockSupport.parkNanos(remaining - SPIN_NANOS);
                } else {
                    Thread.onSpinWait();
                }
            }
        }
    };
}
