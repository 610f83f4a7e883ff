package org.ivsbench.testsupport;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The tests' bounded wait: it returns what it waited for, fails naming what it last saw, passes on a probe's throw. */
class AwaitTest {
    @Test
    void returnsTheFirstValueThatIsWhatItWaitsFor() throws Exception {
        AtomicInteger probes = new AtomicInteger();
        int seen =
                Await.until("three probes", Duration.ofMinutes(1), Duration.ZERO, probes::incrementAndGet, n -> n >= 3);
        assertEquals(3, seen);
        assertEquals(3, probes.get(), "no probe after the one that matched");
    }

    @Test
    void failsAfterItsLimitNamingWhatItWaitedForAndWhatItLastSaw() {
        AssertionError e = assertThrows(
                AssertionError.class,
                () -> Await.until("a value above 5", Duration.ofMillis(1), Duration.ofMillis(1), () -> 4, v -> v > 5));
        assertEquals("waited 0 s for a value above 5; last saw: 4", e.getMessage());
    }

    @Test
    void aProbesExceptionEndsTheWait() {
        IllegalStateException gone = new IllegalStateException("the process exited");
        IllegalStateException e = assertThrows(
                IllegalStateException.class,
                () -> Await.until(
                        "anything",
                        Duration.ofMinutes(1),
                        () -> {
                            throw gone;
                        },
                        v -> true));
        assertSame(gone, e);
    }
}
