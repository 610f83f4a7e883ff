package org.ivsbench.experiment;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import org.ivsbench.config.TargetConfig;
import org.ivsbench.db.ForwardingTarget;
import org.ivsbench.db.Quiescence;
import org.ivsbench.db.QuietGauge;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;
import org.ivsbench.db.Targets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The wait's polling and bound on a virtual clock: a sleep advances it, nothing else does. */
class QuiescenceWaitTest {
    /** The virtual clock in nanoseconds. */
    private long now;

    private final List<Long> sleeps = new ArrayList<>();

    private QuiescenceWait waitOf(long timeoutSeconds) {
        return new QuiescenceWait(
                timeoutSeconds,
                () -> now,
                ms -> {
                    sleeps.add(ms);
                    now += ms * 1_000_000L;
                },
                () -> false);
    }

    /** A target whose probe returns {@code dirty} readings in turn (the last one for ever after). */
    private static final class Scripted extends ForwardingTarget {
        final List<String> calls = new ArrayList<>();
        private final double[] dirty;
        private final boolean failSettle;

        Scripted(Target base, boolean failSettle, double... dirty) {
            super(base);
            this.dirty = dirty;
            this.failSettle = failSettle;
        }

        @Override
        public <T> Optional<T> capability(Class<T> type) {
            if (type != Quiescence.class) {
                return super.capability(type);
            }
            Quiescence q = table -> {
                calls.add("settle " + table);
                if (failSettle) {
                    throw new TargetException("CHECKPOINT refused");
                }
                Iterator<Double> it = java.util.Arrays.stream(dirty).boxed().iterator();
                return new Quiescence.Probe() {
                    double last;

                    @Override
                    public List<QuietGauge> read() {
                        last = it.hasNext() ? it.next() : last;
                        calls.add("read " + (long) last);
                        return List.of(QuietGauge.atMostOrSteady("dirty", last, 10));
                    }

                    @Override
                    public void close() {
                        calls.add("close");
                    }
                };
            };
            return Optional.of(type.cast(q));
        }
    }

    private static Target memory() throws TargetException {
        return Targets.open(
                new TargetConfig("MEMORY", null, "memory:quiesce-wait", null, null, null, false, java.util.Map.of()));
    }

    @Test
    void quietAtTheFirstReadingTakesNoTimeAndNoSleep() throws Exception {
        try (Scripted t = new Scripted(memory(), false, 5)) {
            QuiescenceWait.Result r = waitOf(60).await(t, "usertable");
            assertEquals(0, r.millis());
            assertFalse(r.timedOut());
            assertEquals(List.of(), sleeps);
            assertEquals(List.of("settle usertable", "read 5", "close"), t.calls);
        }
    }

    @Test
    void pollsEverySecondUntilTheGaugeSettles() throws Exception {
        // Falls, then three equal readings: quiet at the fifth reading, after four intervals.
        try (Scripted t = new Scripted(memory(), false, 900, 500, 459, 459, 459)) {
            QuiescenceWait.Result r = waitOf(60).await(t, "usertable");
            assertFalse(r.timedOut());
            assertEquals(4 * QuiescenceWait.INTERVAL_MS, r.millis());
            assertEquals(List.of(1000L, 1000L, 1000L, 1000L), sleeps);
            assertEquals("quiet after 4.0 s", r.describe());
        }
    }

    @Test
    void theTimeoutBoundsTheWaitAndNamesWhatIsStillBusy() throws Exception {
        // Always falling: never quiet. A 3 s timeout: readings at 0, 1, 2 and 3 s, then the wait gives up.
        try (Scripted t = new Scripted(memory(), false, 900, 800, 700, 600, 500, 400)) {
            QuiescenceWait.Result r = waitOf(3).await(t, "usertable");
            assertTrue(r.timedOut());
            assertEquals(3000, r.millis());
            assertEquals(List.of("dirty 600"), r.busy());
            assertEquals("not quiet after 3.0 s (still busy: dirty 600)", r.describe());
            assertEquals("close", t.calls.get(t.calls.size() - 1));
        }
    }

    @Test
    void aServerThatCannotBeAskedEndsTheWaitWithItsReason() throws Exception {
        try (Scripted t = new Scripted(memory(), true, 0)) {
            QuiescenceWait.Result r = waitOf(60).await(t, "usertable");
            assertTrue(r.timedOut());
            assertEquals("CHECKPOINT refused", r.error());
        }
    }

    @Test
    void aKindWithoutTheCapabilityIsQuietAtOnceAndATimeoutOfZeroWaitsNot() throws Exception {
        try (Target t = memory()) {
            QuiescenceWait.Result r = waitOf(60).await(t, "usertable");
            assertEquals(0, r.millis());
            assertFalse(r.timedOut());
            assertNull(waitOf(0).await(t, "usertable"));
        }
        try (Scripted t = new Scripted(memory(), false, 900)) {
            assertNull(waitOf(0).await(t, "usertable"));
            assertEquals(List.of(), t.calls, "a disabled wait sends the server nothing");
        }
    }
}
