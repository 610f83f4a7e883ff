package org.ivsbench.engine;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.config.ArrivalKind;
import org.ivsbench.config.PhaseConfig;
import org.ivsbench.config.RateSpec;
import org.ivsbench.random.Seeds;
import org.ivsbench.stats.PhaseSummary;

import static org.ivsbench.engine.EngineRun.MS;
import static org.ivsbench.engine.EngineRun.SECOND;
import static org.ivsbench.engine.EngineRun.TYPES;
import static org.ivsbench.engine.EngineRun.phase;
import static org.ivsbench.engine.EngineRun.withArrival;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The engine's open and closed loops on the virtual clock: terminals with a fixed virtual service time, so
 * every count and latency below is exact.
 */
class OpenLoopTest {
    @TempDir
    Path dir;

    private final VirtualClock clock = new VirtualClock();

    private List<PhaseSummary> run(List<PhaseConfig> phases, int terminals, long seed, long serviceNanos)
            throws Exception {
        return new EngineRun(dir, clock, phases, TYPES, terminals, seed)
                .run(id -> new SimTerminal(clock, serviceNanos));
    }

    @Test
    void regularArrivalsAllRunOnTimeAndTheNextPhaseStartsAtTheDeadline() throws Exception {
        // 60 s at 1,000 arrivals/s against a terminal that needs 0.5 ms per operation: every arrival runs at
        // its intended start, so the response time is the service time and nothing queues.
        List<PhaseConfig> phases = List.of(
                phase(0, 60, 0, 0, RateSpec.open(1000), 1, 100, 0), phase(1, 1, 0, 0, RateSpec.unlimited(), 2, 100, 0));
        List<PhaseSummary> s = run(phases, 2, 1, 500_000);
        PhaseSummary open = s.get(0);
        assertEquals(60_000, open.counts().total());
        assertEquals(0, open.missed());
        assertEquals(60.0, open.measuredSeconds());
        assertEquals(1000.0, open.throughput());
        assertEquals(500, open.responseTimeUs().max());
        assertEquals(500, open.responseTimeUs().p50());
        assertEquals(0, open.startLagUs().max());
        assertEquals(VirtualClock.EPOCH_MS, open.startMs());
        assertEquals(open.measuredStartMs() + 60_000, s.get(1).startMs(), "the next phase starts at the deadline");
        // Closed loop, two terminals, 0.5 ms each: 2 x 2,000 operations in its second.
        assertEquals(4000, s.get(1).counts().total());
        assertEquals(1.0, s.get(1).measuredSeconds());
        assertEquals(s.get(1).startMs() + 1000, s.get(1).endMs());
    }

    @Test
    void poissonArrivalsRunTheSeededTimeline() throws Exception {
        // The count is the number of arrivals the seeded process puts before the deadline: no more, no less.
        long seed = 17;
        ArrivalProcess timeline = new ArrivalProcess(0, 500, ArrivalKind.POISSON, Seeds.forStream(seed, "arrivals", 0));
        long expected = 0;
        for (; timeline.current() < 10 * SECOND; timeline.advance()) {
            expected++;
        }
        List<PhaseConfig> phases =
                List.of(withArrival(phase(0, 10, 0, 0, RateSpec.open(500), 2, 100, 0), ArrivalKind.POISSON));
        PhaseSummary s = run(phases, 2, seed, 100_000).get(0);
        assertEquals(expected, s.counts().total());
        assertEquals(0, s.missed());
        assertTrue(Math.abs(expected - 5000) < 300, "about 500/s: " + expected);
        // Poisson gaps vary: with two terminals some arrivals still queue behind others.
        assertTrue(s.startLagUs().max() > 0, "some arrival started late");
    }

    @Test
    void aClosedLoopRunsBackToBackForTheWholePhase() throws Exception {
        // Two terminals, 2 ms per operation, 10 s: each starts an operation every 2 ms, 5,000 each.
        List<PhaseConfig> phases = List.of(phase(0, 10, 0, 0, RateSpec.unlimited(), 2, 100, 0));
        PhaseSummary s = run(phases, 2, 1, 2 * MS).get(0);
        assertEquals(10_000, s.counts().total());
        assertEquals(1000.0, s.throughput());
        assertEquals(2000, s.responseTimeUs().max(), "closed loop: response time is service time");
        assertEquals(2000, s.serviceTimeUs().p50());
    }

    @Test
    void aSlowTerminalMissesArrivalsAndItsResponseTimeCountsFromTheIntendedStart() throws Exception {
        // 100 arrivals/s (every 10 ms), one terminal taking 20 ms, backlog bound 10 ms. From t = 20 ms on, each
        // time the terminal is free (every 20 ms) the older of the two waiting arrivals is 20 ms late, past the
        // bound: missed; the other is 10 ms late: run, 30 ms response. At the deadline (1 s) the terminal
        // frees up, misses arrival 98 and takes 99 within the drain grace: 51 run, 49 missed.
        List<PhaseConfig> phases = List.of(
                phase(0, 1, 0, 0, RateSpec.open(100), 1, 100, 0).toBuilder()
                        .maxLatenessMs(5)
                        .build(),
                phase(1, 1, 0, 0, RateSpec.open(10), 1, 100, 0));
        List<PhaseSummary> s = run(phases, 1, 1, 20 * MS);
        PhaseSummary slow = s.get(0);
        assertEquals(51, slow.counts().total());
        assertEquals(49, slow.missed());
        // (Histogram values are exact to three digits.)
        assertEquals(20_000, slow.serviceTimeUs().max(), 20);
        assertEquals(30_000, slow.responseTimeUs().p50(), 30);
        assertEquals(30_000, slow.responseTimeUs().max(), 30);
        assertEquals(10_000, slow.startLagUs().max(), 10);
        // Every missed arrival was 20 ms late when given up.
        assertEquals(20_000, slow.missedLatenessUs().p50(), 20);
        assertEquals(20_000, slow.missedLatenessUs().max(), 20);
        assertEquals(1.0, slow.measuredSeconds());
        // The last operation ran past the deadline, yet the next phase starts at it, and keeps up.
        assertEquals(slow.startMs() + 1000, s.get(1).startMs());
        assertEquals(10, s.get(1).counts().total());
        assertEquals(0, s.get(1).missed());
    }

    @Test
    void theLatenessBoundIsThePhasesMaxLateness() throws Exception {
        // 100 arrivals/s against one terminal of 20 ms: overloaded twice over. With maxlateness 100 ms the
        // terminal runs arrivals 0..100 ms back to back (each 10 ms later than the one before), then, every
        // 20 ms, gives up the arrival 110 ms late and runs the one 100 ms late (120 ms response). At the deadline
        // (1,000 ms) it takes arrival 900 ms; the last nine (910..990 ms) are missed when the drain grace ends
        // at 1,010 ms, 100..20 ms late. 51 run, 49 missed: 40 given up at 110 ms, 9 at the end.
        List<PhaseConfig> bounded = List.of(phase(0, 1, 0, 0, RateSpec.open(100), 1, 100, 0).toBuilder()
                .maxLatenessMs(100)
                .build());
        PhaseSummary b = run(bounded, 1, 1, 20 * MS).get(0);
        assertEquals(51, b.counts().total());
        assertEquals(49, b.missed());
        assertEquals(120_000, b.responseTimeUs().p50(), 120);
        assertEquals(120_000, b.responseTimeUs().max(), 120);
        assertEquals(110_000, b.missedLatenessUs().p50(), 110);
        assertEquals(110_000, b.missedLatenessUs().max(), 110);
        assertEquals((40 * 110_000 + 540_000) / 49.0, b.missedLatenessUs().avg(), 100);
        // The default bound (1 s) is never reached in one second: the queue grows, arrival k runs at 20k ms
        // (response 10k + 20 ms) until the deadline; the 49 arrivals left at the end of the grace are missed.
        List<PhaseConfig> unbounded = List.of(phase(0, 1, 0, 0, RateSpec.open(100), 1, 100, 0));
        PhaseSummary u = run(unbounded, 1, 1, 20 * MS).get(0);
        assertEquals(51, u.counts().total());
        assertEquals(49, u.missed());
        assertEquals(520_000, u.responseTimeUs().max(), 520);
        assertEquals(500_000, u.missedLatenessUs().max(), 500);
        assertEquals(260_000, u.missedLatenessUs().avg(), 260);
    }

    @Test
    void anArrivalDueJustBeforeTheDeadlineRunsWithinTheDrainGrace() throws Exception {
        // 10 arrivals/s for 1 s; the 9th operation (intended 800 ms) takes 205 ms, so the 10th arrival (900 ms)
        // is still waiting at the deadline: the terminal takes it at 1,005 ms, within the 10 ms grace. Taking
        // 215 ms it would be free only after the grace: the arrival is then missed.
        for (long ninth : new long[] {205, 215}) {
            boolean inGrace = ninth == 205;
            List<PhaseConfig> phases = List.of(phase(0, 1, 0, 0, RateSpec.open(10), 1, 100, 0));
            PhaseSummary s = new EngineRun(dir, clock, phases, TYPES, 1, 1)
                    .run(id -> new SimTerminal(clock, MS) {
                        @Override
                        long serviceNanos(int nth) {
                            return nth == 9 ? ninth * MS : MS;
                        }
                    })
                    .get(0);
            assertEquals(inGrace ? 10 : 9, s.counts().total(), "ninth took " + ninth + " ms");
            assertEquals(inGrace ? 0 : 1, s.missed(), "ninth took " + ninth + " ms");
        }
    }

    @Test
    void warmupIsExcludedFromTheFigures() throws Exception {
        List<PhaseConfig> phases = List.of(phase(0, 5, 0, 2, RateSpec.open(100), 1, 100, 0));
        PhaseSummary s = run(phases, 1, 1, MS).get(0);
        assertEquals(200, s.warmupOperations());
        assertEquals(500, s.counts().total());
        assertEquals(5.0, s.measuredSeconds());
        assertEquals(100.0, s.throughput());
        assertEquals(s.startMs() + 2000, s.measuredStartMs());
        assertEquals(s.measuredStartMs() + 5000, s.endMs());
    }

    @Test
    void arrivalsNoTerminalComesForAreMissedWhileTheStallLasts() throws Exception {
        // 100 arrivals/s, one terminal whose first operation hangs for 5 s (a held lock), bound 1 s. The manager
        // gives up what is more than 1 s + 100 ms late at each 100 ms tick: at 3.05 s (last tick 3.0 s) the
        // arrivals of 10..1,890 ms are missed (189), while the terminal is still stuck; before the fix they
        // were all counted at 5 s, when it came back.
        AtomicLong missedAt3s = new AtomicLong(-1);
        List<PhaseConfig> phases = List.of(phase(0, 10, 0, 0, RateSpec.open(100), 1, 100, 0));
        EngineRun engine = new EngineRun(dir, clock, phases, TYPES, 1, 1);
        clock.at(
                3_050 * MS, () -> missedAt3s.set(engine.manager().currentPhase().missed()));
        List<PhaseSummary> s = engine.run(id -> new SimTerminal(clock, MS) {
            @Override
            long serviceNanos(int nth) {
                return nth == 1 ? 5 * SECOND : MS;
            }
        });
        assertEquals(189, missedAt3s.get());
        // The terminal comes back at 5 s: it gives up what is more than 1 s late (up to 3.99 s) and runs the
        // rest, 1 ms each, catching up. The 5 s hang costs the arrivals of 10 ms..3.99 s (399), no more.
        assertEquals(399, s.get(0).missed());
        assertEquals(1000 - 399, s.get(0).counts().total());
    }
}
