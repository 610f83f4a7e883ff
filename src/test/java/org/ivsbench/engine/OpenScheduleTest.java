package org.ivsbench.engine;

import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import org.ivsbench.config.ArrivalKind;
import org.ivsbench.op.Outcome;
import org.ivsbench.stats.PhaseStats;
import org.ivsbench.stats.PhaseSummary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Rate control on a simulated clock: one or more terminals with a fixed service time take claims, and time
 * advances only as they do. No sleeping, so the figures are exact and the test is fast.
 */
class OpenScheduleTest {
    private static final long SECOND = 1_000_000_000L;

    /** Simulates terminals that are free at the times in {@code freeAt}; returns claims taken. */
    private static long simulate(
            OpenSchedule schedule, PhaseStats stats, int terminals, long serviceNanos, long endNanos) {
        long[] freeAt = new long[terminals];
        long claims = 0;
        while (true) {
            int next = 0;
            for (int i = 1; i < terminals; i++) {
                if (freeAt[i] < freeAt[next]) {
                    next = i;
                }
            }
            long now = freeAt[next];
            if (now >= endNanos) {
                schedule.end(endNanos);
                return claims;
            }
            Claim c = schedule.claim(now);
            if (c == null) {
                schedule.end(endNanos);
                return claims;
            }
            claims++;
            long start = Math.max(now, c.intendedNanos());
            long done = start + serviceNanos;
            if (c.measured()) {
                stats.record(0, Outcome.OK, done - c.intendedNanos(), serviceNanos, 0, 0, null);
            } else {
                stats.recordWarmup();
            }
            stats.operationDone();
            freeAt[next] = done;
        }
    }

    private static PhaseStats stats() {
        return new PhaseStats(0, "p", List.of("T"));
    }

    @Test
    void regularArrivalsHitTheRateExactlyWhenCapacitySuffices() {
        PhaseStats stats = stats();
        long duration = 10 * SECOND;
        OpenSchedule s = new OpenSchedule(
                new ArrivalProcess(0, 1000, ArrivalKind.REGULAR, new SplittableRandom(1)),
                0,
                duration,
                0,
                SECOND,
                stats);
        long claims = simulate(s, stats, 1, 500_000, Long.MAX_VALUE);
        assertEquals(10_000, claims);
        stats.markScheduleEnded(10_000, 10.0);
        stats.drain(0, 1000);
        PhaseSummary sum = stats.summary();
        assertEquals(0, sum.missed());
        // Nobody queued: response time is the service time.
        assertEquals(500, sum.responseTimeUs().max(), 1);
    }

    @Test
    void poissonArrivalsAverageTheRateWithinHalfAPercent() {
        PhaseStats stats = stats();
        long duration = 1000 * SECOND;
        OpenSchedule s = new OpenSchedule(
                new ArrivalProcess(0, 1000, ArrivalKind.POISSON, new SplittableRandom(7)),
                0,
                duration,
                0,
                SECOND,
                stats);
        long claims = simulate(s, stats, 2, 100_000, Long.MAX_VALUE);
        double achieved = claims / 1000.0;
        assertTrue(Math.abs(achieved - 1000) / 1000 < 0.005, "achieved " + achieved + " ops/s");
        // Poisson gaps really vary: some arrivals queue behind others even with spare capacity.
        stats.drain(0, 1000);
        assertTrue(stats.summary().responseTimeUs().p999() > 100, "poisson arrivals should bunch");
    }

    @Test
    void overloadCountsMissedArrivalsAndConservesEveryArrival() {
        PhaseStats stats = stats();
        long duration = 10 * SECOND;
        // 1000 arrivals/s against a terminal that serves 500/s, backlog bound 1 s.
        OpenSchedule s = new OpenSchedule(
                new ArrivalProcess(0, 1000, ArrivalKind.REGULAR, new SplittableRandom(1)),
                0,
                duration,
                0,
                SECOND,
                stats);
        long claims = simulate(s, stats, 1, 2_000_000, duration);
        stats.markScheduleEnded(10_000, 10.0);
        stats.drain(0, 1000);
        PhaseSummary sum = stats.summary();
        assertEquals(10_000, claims + sum.missed(), "every arrival is either run or counted as missed");
        assertTrue(sum.missed() > 4000 && sum.missed() < 5100, "missed " + sum.missed());
        // Latency from intended start shows the queue; service time does not.
        assertTrue(
                sum.responseTimeUs().p99() > 500 * sum.serviceTimeUs().p99() / 1000,
                "response p99 " + sum.responseTimeUs().p99() + " vs service p99 "
                        + sum.serviceTimeUs().p99());
        assertTrue(sum.responseTimeUs().max() <= 1_000_000 + 2_000 + 1000, "bounded by the backlog limit");
    }

    @Test
    void countPhaseIssuesExactlyCountMeasuredOperationsAfterWarmup() {
        PhaseStats stats = stats();
        OpenSchedule s = new OpenSchedule(
                new ArrivalProcess(0, 2000, ArrivalKind.POISSON, new SplittableRandom(3)),
                SECOND,
                Long.MAX_VALUE,
                1234,
                SECOND,
                stats);
        simulate(s, stats, 2, 100_000, Long.MAX_VALUE);
        stats.drain(0, 1000);
        PhaseSummary sum = stats.summary();
        assertEquals(1234, sum.counts().total());
        assertTrue(sum.warmupOperations() > 1800 && sum.warmupOperations() < 2200, "warmup " + sum.warmupOperations());
        assertTrue(s.exhausted());
    }

    @Test
    void sameSeedGivesTheSameTimeline() {
        ArrivalProcess a = new ArrivalProcess(5, 300, ArrivalKind.POISSON, new SplittableRandom(11));
        ArrivalProcess b = new ArrivalProcess(5, 300, ArrivalKind.POISSON, new SplittableRandom(11));
        for (int i = 0; i < 1000; i++) {
            assertEquals(a.current(), b.current());
            a.advance();
            b.advance();
        }
    }
}
