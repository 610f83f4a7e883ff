package org.ivsbench.engine;

/** Monotonic time and sleeping, injectable so that rate control can be tested without waiting. */
public interface Clock {
    long nanoTime();

    /** Sleeps until {@link #nanoTime()} reaches {@code deadlineNanos} (returns at once if it has). */
    void sleepUntil(long deadlineNanos) throws InterruptedException;

    /** How long before a deadline the system clock stops parking and spins: above the ~75 µs a park overshoots on these VMs (scripts/bench/rate-accuracy.sh). */
    long SPIN_NANOS = 100_000;

    /** Only waits at least this long end in a spin, so spinning takes at most a tenth of a terminal's time. */
    long SPIN_MIN_WAIT_NANOS = 1_000_000;

    Clock SYSTEM = new Clock() {
        @Override
        public long nanoTime() {
            return System.nanoTime();
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
                    java.util.concurrent.locks.LockSupport.parkNanos(remaining);
                } else if (remaining > SPIN_NANOS) {
                    java.util.concurrent.locks.LockSupport.parkNanos(remaining - SPIN_NANOS);
                } else {
                    Thread.onSpinWait();
                }
            }
        }
    };
}
