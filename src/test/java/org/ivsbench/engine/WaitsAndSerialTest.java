package org.ivsbench.engine;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.ivsbench.config.PhaseConfig;
import org.ivsbench.config.RateSpec;
import org.ivsbench.config.TransactionTypeConfig;
import org.ivsbench.op.OpResult;
import org.ivsbench.stats.PhaseSummary;

import static org.ivsbench.engine.EngineRun.MS;
import static org.ivsbench.engine.EngineRun.phase;
import static org.ivsbench.engine.EngineRun.serial;
import static org.ivsbench.engine.EngineRun.withThinkTime;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The terminal's own pauses (preExecutionWait, postExecutionWait, thinkTime) and serial phases, on the virtual
 * clock with terminals whose operations take 1 ms: phase lengths and latencies are exact, so a pause that is
 * skipped, doubled, or counted in the response time shows.
 */
@Timeout(60)
class WaitsAndSerialTest {
    @TempDir
    Path dir;

    private final VirtualClock clock = new VirtualClock();

    private PhaseSummary run(
            PhaseConfig phase, List<TransactionTypeConfig> types, int terminals, Map<Integer, SimTerminal> out)
            throws Exception {
        return new EngineRun(dir, clock, List.of(phase), types, terminals, 1)
                .run(id -> {
                    SimTerminal t = new SimTerminal(clock, MS);
                    out.put(id, t);
                    return t;
                })
                .get(0);
    }

    private static List<TransactionTypeConfig> type(long preMs, long postMs) {
        return List.of(new TransactionTypeConfig("A", preMs, postMs));
    }

    @ParameterizedTest(name = "pre {0} ms, post {1} ms, think {2} ms")
    @CsvSource({"20, 0, 0, 0.630", "0, 20, 0, 0.610", "0, 0, 20, 0.610"})
    void eachPausePacesAClosedLoopAndIsNotInTheResponseTime(long preMs, long postMs, long thinkMs, double seconds)
            throws Exception {
        // 60 operations, 2 terminals, 1 ms each with a 20 ms pause: 30 per terminal, one every 21 ms. The
        // phase ends with the last operation: after its pre-execution wait (29 x 21 + 20 + 1 ms), but before
        // the pause that would follow it (29 x 21 + 1 ms).
        PhaseConfig phase = withThinkTime(phase(0, 0, 60, 0, RateSpec.unlimited(), 2, 100), thinkMs);
        Map<Integer, SimTerminal> terms = new ConcurrentHashMap<>();
        PhaseSummary s = run(phase, type(preMs, postMs), 2, terms);
        assertEquals(60, s.counts().total());
        assertEquals(seconds, s.measuredSeconds(), 1e-12);
        assertEquals(30, terms.get(0).log.size());
        assertEquals(
                21 * MS, terms.get(0).startedAt.get(1) - terms.get(0).startedAt.get(0), "one every 21 ms");
        // The pause is the terminal's, not the database's.
        assertEquals(1000, s.responseTimeUs().max());
        assertEquals(1000, s.serviceTimeUs().max());
    }

    @Test
    void anOpenLoopPreExecutionWaitMovesTheIntendedStart() throws Exception {
        // 20 arrivals/s for 2 s, each operation waits 30 ms first: the terminal keeps up (31 of every 50 ms),
        // and the response time, from the intended start moved by the wait, is the 1 ms of service alone.
        PhaseSummary s = run(phase(0, 2, 0, 0, RateSpec.open(20), 1, 100), type(30, 0), 1, new ConcurrentHashMap<>());
        assertEquals(40, s.counts().total());
        assertEquals(0, s.missed());
        assertEquals(1000, s.responseTimeUs().max());
        assertEquals(0, s.startLagUs().max());
    }

    @Test
    void anOpenLoopIgnoresThinkTime() throws Exception {
        // Arrivals pace an open loop; a 1 s think time after each operation would leave one terminal able to
        // take one of the 50 arrivals per second and miss the rest.
        PhaseConfig phase = withThinkTime(phase(0, 1, 0, 0, RateSpec.open(50), 1, 100), 1000);
        PhaseSummary s = run(phase, type(0, 0), 1, new ConcurrentHashMap<>());
        assertEquals(50, s.counts().total());
        assertEquals(0, s.missed());
    }

    @Test
    void aCountPhaseEndsWithItsLastOperationNotWithThePauseAfterIt() throws Exception {
        // Two operations, one terminal, 1 s think time: one pause lies between them, the one after the last
        // operation belongs to no operation. The phase lasts 1 ms + 1 s + 1 ms, not 2 s and more.
        PhaseConfig phase = withThinkTime(phase(0, 0, 2, 0, RateSpec.unlimited(), 1, 100), 1000);
        PhaseSummary s = run(phase, type(0, 0), 1, new ConcurrentHashMap<>());
        assertEquals(2, s.counts().total());
        assertEquals(1.002, s.measuredSeconds(), 1e-12);
    }

    @Test
    void aStopDuringThePostExecutionWaitDoesNotCountTheDoneOperationAsMissed() throws Exception {
        // One operation (1 ms), then a 5 s post-execution wait; the stop comes 200 ms in, and ends the phase then.
        PhaseConfig phase = phase(0, 10, 0, 0, RateSpec.unlimited(), 1, 100);
        EngineRun run = new EngineRun(dir, clock, List.of(phase), type(0, 5000), 1, 1);
        clock.at(200 * MS, run.manager()::requestStop);
        PhaseSummary s = run.run(id -> new SimTerminal(clock, MS)).get(0);
        assertEquals(1, s.counts().total());
        assertEquals(0, s.missed(), "the operation ran: it is not also missed");
        assertEquals(0.2, s.measuredSeconds(), 1e-12);
    }

    @Test
    void aSerialPhaseRunsThePositiveWeightTypesInTheirListedOrder() throws Exception {
        // Types A, B, C with weights 30, 0, 70: each terminal runs A, C, A, C, ... (the weights' values do not
        // matter beyond zero or not; B never runs). 301 operations: terminal 0 ends on an extra A.
        List<TransactionTypeConfig> types = List.of(
                new TransactionTypeConfig("A", 0, 0),
                new TransactionTypeConfig("B", 0, 0),
                new TransactionTypeConfig("C", 0, 0));
        Map<Integer, SimTerminal> terms = new ConcurrentHashMap<>();
        PhaseSummary s = run(serial(phase(0, 0, 301, 0, RateSpec.unlimited(), 2, 30, 0, 70)), types, 2, terms);
        assertEquals(301, s.counts().total());
        assertEquals(0, s.transactions().get("B").counts().total());
        for (SimTerminal t : terms.values()) {
            for (int i = 0; i < t.log.size(); i++) {
                assertEquals(i % 2 == 0 ? "0" : "2", t.log.get(i).split(":")[0], "operation " + i + " of " + t.log);
            }
        }
        assertEquals(151, s.transactions().get("A").counts().total());
        assertEquals(150, s.transactions().get("C").counts().total());
    }

    @Test
    void aLongThinkTimeEndsWithItsPhase() throws Exception {
        // A 3 s think time after the one operation of a 1 s time phase: the terminal leaves the pause at the
        // deadline and runs the next phase's 50 operations from then on.
        List<PhaseConfig> phases = List.of(
                withThinkTime(phase(0, 1, 0, 0, RateSpec.unlimited(), 1, 100), 3000),
                phase(1, 0, 50, 0, RateSpec.unlimited(), 1, 100));
        Map<Integer, SimTerminal> terms = new ConcurrentHashMap<>();
        List<PhaseSummary> s = new EngineRun(dir, clock, phases, type(0, 0), 1, 1).run(id -> {
            SimTerminal t = new SimTerminal(clock, MS);
            terms.put(id, t);
            return t;
        });
        assertEquals(1, s.get(0).counts().total(), "one operation, then the 3 s think time");
        assertEquals(50, s.get(1).counts().total());
        assertEquals(s.get(0).startMs() + 1000, s.get(1).startMs());
        assertEquals(0.05, s.get(1).measuredSeconds(), 1e-12);
        assertEquals(1000 * MS, terms.get(0).startedAt.get(1), "the second phase's first operation at 1 s");
    }

    /** A terminal whose operation fails fast (no time taken) still has its pause: the pause paces, not the work. */
    @Test
    void aPauseAfterAFailedOperationStillPaces() throws Exception {
        PhaseConfig phase = withThinkTime(phase(0, 1, 0, 0, RateSpec.unlimited(), 1, 100), 100);
        PhaseSummary s = new EngineRun(dir, clock, List.of(phase), type(0, 0), 1, 1)
                .run(id -> new SimTerminal(clock, 0) {
                    @Override
                    public OpResult execute(int type) {
                        return OpResult.error("refused");
                    }
                })
                .get(0);
        assertEquals(10, s.counts().error());
    }
}
