package org.ivsbench.testsupport;

import java.time.Duration;
import java.util.function.Predicate;

/**
 * A bounded wait for the event a test needs: it polls a probe until what the probe returns is what the test waits
 * for, and fails after the timeout with what it waited for and the last thing it saw. The timeout only ends a hung
 * test (a server that stopped answering, a run that never starts): it is far from anything a slow, busy box needs,
 * and nothing is measured against it.
 *
 * <p>A probe may do work as well as look (insert a row, then count the monitor's rows): with a zero pause the wait
 * is a bounded "do until". A probe that finds the wait can no longer succeed (the process it watches exited) throws.
 */
public final class Await {
    /** The pause between probes when the caller names none. */
    public static final Duration POLL = Duration.ofMillis(50);

    /** What the test looks at; it may throw, which ends the wait with that exception. */
    @FunctionalInterface
    public interface Probe<T> {
        T get() throws Exception;
    }

    private Await() {}

    /** {@link #until(String, Duration, Duration, Probe, Predicate)} polling every {@link #POLL}. */
    public static <T> T until(String what, Duration timeout, Probe<T> probe, Predicate<? super T> done)
            throws Exception {
        return until(what, timeout, POLL, probe, done);
    }

    /**
     * Probes until {@code done} accepts the probe's value, pausing {@code pause} between probes, and returns that
     * value. Fails with an {@link AssertionError} naming {@code what} and the last value seen once {@code timeout}
     * has passed.
     */
    public static <T> T until(String what, Duration timeout, Duration pause, Probe<T> probe, Predicate<? super T> done)
            throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            T seen = probe.get();
            if (done.test(seen)) {
                return seen;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("waited " + timeout.toSeconds() + " s for " + what + "; last saw: " + seen);
            }
            if (!pause.isZero()) {
                Thread.sleep(pause.toMillis());
            }
        }
    }
}
