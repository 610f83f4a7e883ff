package org.ivsbench.engine;

/** Monotonic time and sleeping, injectable so that rate control can be tested without waiting. */
public interface Clock {
    long nanoTime();

    /** Sleeps until {@link #nanoTime()} reaches {@code deadlineNanos} (returns at once if it has). */
    void sleepUntil(long deadlineNanos) throws InterruptedException;

    Clock SYSTEM = new Clock() {
        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public void sleepUntil(long deadlineNanos) throws InterruptedException {
            // Sleep coarsely, then park in short steps: Thread.sleep alone overshoots by up to a
            // millisecond, which would distort high rates; spinning would steal a core from the database.
            while (true) {
                long remaining = deadlineNanos - System.nanoTime();
                if (remaining <= 0) {
                    return;
                }
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
                if (remaining > 2_000_000) {
                    Thread.sleep((remaining - 1_000_000) / 1_000_000);
                } else {
                    java.util.concurrent.locks.LockSupport.parkNanos(Math.min(remaining, 50_000));
                }
            }
        }
    };
}
