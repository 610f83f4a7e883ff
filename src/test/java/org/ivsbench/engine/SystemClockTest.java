package org.ivsbench.engine;

import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link Clock#SYSTEM}'s waits. On the real clock because that is what they are; each can only pass by the
 * path it names (no deadline to fall back on), and the timeout turns a lost wake-up into a failure.
 */
@Tag("realclock")
@Timeout(30)
class SystemClockTest {
    private final Clock clock = Clock.SYSTEM;

    @Test
    void sleepUntilReturnsNoEarlierThanItsDeadline() throws InterruptedException {
        for (long wait : new long[] {200_000, 2_000_000}) { // parked only, and parked then spun
            long deadline = clock.nanoTime() + wait;
            clock.sleepUntil(deadline);
            assertTrue(clock.nanoTime() >= deadline);
        }
    }

    @Test
    void awaitUntilWakesOnSignalAll() throws Exception {
        AtomicBoolean done = new AtomicBoolean();
        Thread setter = new Thread(() -> {
            done.set(true);
            clock.signalAll();
        });
        setter.start();
        // Neither a deadline nor a recheck: only the signal can end this wait.
        assertTrue(clock.awaitUntil(done::get, Long.MAX_VALUE, Long.MAX_VALUE));
        setter.join();
    }

    @Test
    void awaitUntilReturnsFalseAtItsDeadline() throws InterruptedException {
        long deadline = clock.nanoTime() + 3_000_000;
        assertFalse(clock.awaitUntil(() -> false, deadline, 1_000_000));
        assertTrue(clock.nanoTime() >= deadline);
    }

    @Test
    void anInterruptEndsAWait() {
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, () -> clock.awaitUntil(() -> false, Long.MAX_VALUE, Long.MAX_VALUE));
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, () -> clock.sleepUntil(Long.MAX_VALUE));
    }
}
