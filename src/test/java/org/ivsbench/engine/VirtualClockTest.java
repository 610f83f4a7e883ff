package org.ivsbench.engine;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The test clock itself: time moves only when every attached thread waits, to the earliest deadline. */
@Timeout(30)
class VirtualClockTest {
    private final VirtualClock clock = new VirtualClock();

    @Test
    void timeJumpsToTheEarliestDeadlineOnceEveryThreadWaits() throws Exception {
        List<String> events = new CopyOnWriteArrayList<>();
        clock.attach(Thread.currentThread());
        Thread other = clock.at(30, () -> events.add("other@" + clock.nanoTime()));
        assertEquals(0, clock.nanoTime(), "this thread runs: time stands still");
        clock.sleepUntil(10);
        events.add("main@" + clock.nanoTime());
        clock.sleepUntil(50);
        events.add("main@" + clock.nanoTime());
        other.join();
        assertEquals(List.of("main@10", "other@30", "main@50"), events);
        clock.detach(Thread.currentThread());
    }

    @Test
    void aConditionWaitEndsWhenAnotherThreadMakesItTrue() throws Exception {
        AtomicBoolean done = new AtomicBoolean();
        clock.attach(Thread.currentThread());
        clock.at(40, () -> done.set(true));
        assertTrue(clock.awaitUntil(done::get, 1_000, 1));
        assertEquals(40, clock.nanoTime(), "woken when the other thread set it, not at the deadline");
        assertFalse(clock.awaitUntil(() -> false, 70, 1));
        assertEquals(70, clock.nanoTime());
        clock.detach(Thread.currentThread());
    }

    @Test
    void threadsWaitingForEachOtherWithoutADeadlineFailInsteadOfHanging() throws Exception {
        clock.attach(Thread.currentThread());
        AtomicReference<Throwable> otherFailure = new AtomicReference<>();
        Thread other = new Thread(() -> {
            try {
                clock.awaitUntil(() -> false, Long.MAX_VALUE, 1);
            } catch (Throwable e) {
                otherFailure.set(e);
            } finally {
                clock.detach(Thread.currentThread());
            }
        });
        clock.attach(other);
        other.start();
        AssertionError e = assertThrows(AssertionError.class, () -> clock.awaitUntil(() -> false, Long.MAX_VALUE, 1));
        assertTrue(e.getMessage().contains("stalled"), e.getMessage());
        other.join();
        assertTrue(otherFailure.get() instanceof AssertionError, "both fail: " + otherFailure.get());
        clock.detach(Thread.currentThread());
    }

    @Test
    void anInterruptEndsAWaitAndAnUnattachedThreadMayNotWait() {
        clock.attach(Thread.currentThread());
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, () -> clock.sleepUntil(100));
        clock.detach(Thread.currentThread());
        assertThrows(IllegalStateException.class, () -> clock.sleepUntil(100));
    }
}
