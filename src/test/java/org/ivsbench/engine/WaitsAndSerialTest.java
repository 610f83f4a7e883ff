package org.ivsbench.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.ivsbench.bench.Terminal;
import org.ivsbench.config.ArrivalKind;
import org.ivsbench.config.PhaseConfig;
import org.ivsbench.config.RateSpec;
import org.ivsbench.config.TransactionTypeConfig;
import org.ivsbench.stats.PhaseSummary;
import org.ivsbench.stats.RunInfo;
import org.ivsbench.stats.StatsCollector;
import org.ivsbench.op.OpResult;

/**
 * The terminal's own pauses (preExecutionWait, postExecutionWait, thinkTime) and serial phases, on the real
 * clock with no-op terminals. Time bounds are loose (a shared, busy machine) but each fails if the pause is
 * skipped, or counted where it must not be.
 */
class WaitsAndSerialTest {
    @TempDir
    Path dir;

    private static PhaseConfig phase(long time, long count, RateSpec rate, int active, boolean serial, long thinkMs,
            double... w) {
        List<Double> weights = new ArrayList<>();
        for (double x : w) {
            weights.add(x);
        }
        return new PhaseConfig(0, "phase0", time, count, 0, rate, ArrivalKind.REGULAR, weights, active, serial,
                thinkMs, Map.of());
    }

    /** Does nothing; logs the types it ran, in order. */
    static class NoopTerminal implements Terminal {
        final List<Integer> types = Collections.synchronizedList(new ArrayList<>());

        @Override
        public void startPhase(PhaseConfig phase, SplittableRandom random) {
        }

        @Override
        public OpResult execute(int type) {
            types.add(type);
            return OpResult.ok();
        }

        @Override
        public void close() {
        }
    }

    private StatsCollector collector(List<PhaseConfig> phases, int terminals) throws Exception {
        return new StatsCollector(Files.createTempDirectory(dir, "run"),
                new RunInfo("test", "fake", Map.of(), "sha256:x", 1, terminals, 1, phases));
    }

    private PhaseSummary run(PhaseConfig phase, List<TransactionTypeConfig> types, int terminals,
            Map<Integer, NoopTerminal> out) throws Exception {
        StatsCollector collector = collector(List.of(phase), terminals);
        new WorkloadManager(List.of(phase), types, terminals, 1, collector, Clock.SYSTEM, EngineOptions.defaults())
                .run(id -> {
                    NoopTerminal t = new NoopTerminal();
                    out.put(id, t);
                    return t;
                });
        collector.close();
        return collector.summaries().get(0);
    }

    @ParameterizedTest(name = "pre {0} ms, post {1} ms, think {2} ms")
    @CsvSource({"20, 0, 0", "0, 20, 0", "0, 0, 20"})
    void eachPausePacesAClosedLoopAndIsNotInTheResponseTime(long preMs, long postMs, long thinkMs) throws Exception {
        // 60 operations, 2 terminals, 20 ms of pause per operation: 30 pauses per terminal, about 0.6 s.
        // Without the pause the no-op phase takes milliseconds; a pause counted twice or not spread over the
        // terminals takes 1.2 s or more.
        PhaseConfig phase = phase(0, 60, RateSpec.unlimited(), 2, false, thinkMs, 100);
        PhaseSummary s = run(phase, List.of(new TransactionTypeConfig("A", preMs, postMs)), 2,
                new ConcurrentHashMap<>());
        assertEquals(60, s.counts().total());
        double expected = 60 * 0.020 / 2;
        assertTrue(s.measuredSeconds() > 0.8 * expected && s.measuredSeconds() < 1.9 * expected,
                "phase took " + s.measuredSeconds() + " s, expected about " + expected);
        // The pause is the terminal's, not the database's: a no-op operation stays far below 20 ms.
        assertTrue(s.responseTimeUs().p90() < 10_000, "p90 response " + s.responseTimeUs().p90() + " µs");
        assertTrue(s.serviceTimeUs().p90() < 10_000, "p90 service " + s.serviceTimeUs().p90() + " µs");
    }

    @Test
    void anOpenLoopPreExecutionWaitMovesTheIntendedStart() throws Exception {
        // 20 arrivals/s for 2 s, each operation waits 30 ms first: the terminal keeps up (30 of every 50 ms),
        // and the response time, from the intended start moved by the wait, does not contain the 30 ms.
        PhaseConfig phase = phase(2, 0, RateSpec.open(20), 1, false, 0, 100);
        PhaseSummary s = run(phase, List.of(new TransactionTypeConfig("A", 30, 0)), 1, new ConcurrentHashMap<>());
        assertEquals(40, s.counts().total(), 1);
        assertEquals(0, s.missed());
        assertTrue(s.responseTimeUs().p90() < 15_000, "p90 response " + s.responseTimeUs().p90() + " µs");
    }

    @Test
    void anOpenLoopIgnoresThinkTime() throws Exception {
        // Arrivals pace an open loop; a 1 s think time after each operation would leave one terminal able to
        // take one of the 50 arrivals per second and miss the rest.
        PhaseConfig phase = phase(1, 0, RateSpec.open(50), 1, false, 1000, 100);
        PhaseSummary s = run(phase, List.of(new TransactionTypeConfig("A", 0, 0)), 1, new ConcurrentHashMap<>());
        assertEquals(50, s.counts().total(), 1);
        assertEquals(0, s.missed());
    }

    @Test
    void aCountPhaseEndsWithItsLastOperationNotWithThePauseAfterIt() throws Exception {
        // Two operations, one terminal, 1 s think time: one pause lies between them, the one after the last
        // operation belongs to no operation. The phase lasts about 1 s, not 2 s (throughput would be halved).
        PhaseConfig phase = phase(0, 2, RateSpec.unlimited(), 1, false, 1000, 100);
        PhaseSummary s = run(phase, List.of(new TransactionTypeConfig("A", 0, 0)), 1, new ConcurrentHashMap<>());
        assertEquals(2, s.counts().total());
        assertTrue(s.measuredSeconds() > 0.9 && s.measuredSeconds() < 1.6, "phase took " + s.measuredSeconds() + " s");
    }

    @Test
    void aStopDuringThePostExecutionWaitDoesNotCountTheDoneOperationAsMissed() throws Exception {
        PhaseConfig phase = phase(10, 0, RateSpec.unlimited(), 1, false, 0, 100);
        StatsCollector collector = collector(List.of(phase), 1);
        WorkloadManager m = new WorkloadManager(List.of(phase), List.of(new TransactionTypeConfig("A", 0, 5000)), 1,
                1, collector, Clock.SYSTEM, EngineOptions.defaults());
        CountDownLatch executed = new CountDownLatch(1);
        Thread stopper = new Thread(() -> {
            try {
                if (executed.await(10, TimeUnit.SECONDS)) {
                    Thread.sleep(200); // well inside the 5 s wait
                }
            } catch (InterruptedException e) {
                return;
            }
            m.requestStop();
        });
        stopper.start();
        long t0 = System.nanoTime();
        m.run(id -> new NoopTerminal() {
            @Override
            public OpResult execute(int type) {
                executed.countDown();
                return super.execute(type);
            }
        });
        stopper.join();
        collector.close();
        PhaseSummary s = collector.summaries().get(0);
        assertTrue(System.nanoTime() - t0 < 4_000_000_000L, "the stop interrupted the wait");
        assertEquals(1, s.counts().total());
        assertEquals(0, s.missed(), "the operation ran: it is not also missed");
    }

    @Test
    void aSerialPhaseRunsThePositiveWeightTypesInTheirListedOrder() throws Exception {
        // Types A, B, C with weights 30, 0, 70: each terminal runs A, C, A, C, ... (the weights' values do not
        // matter beyond zero or not; B never runs).
        List<TransactionTypeConfig> types = List.of(new TransactionTypeConfig("A", 0, 0),
                new TransactionTypeConfig("B", 0, 0), new TransactionTypeConfig("C", 0, 0));
        Map<Integer, NoopTerminal> terms = new ConcurrentHashMap<>();
        PhaseSummary s = run(phase(0, 301, RateSpec.unlimited(), 2, true, 0, 30, 0, 70), types, 2, terms);
        assertEquals(301, s.counts().total());
        assertEquals(0, s.transactions().get("B").counts().total());
        for (NoopTerminal t : terms.values()) {
            for (int i = 0; i < t.types.size(); i++) {
                assertEquals(i % 2 == 0 ? 0 : 2, t.types.get(i), "operation " + i + " of " + t.types);
            }
        }
        long a = s.transactions().get("A").counts().total();
        long c = s.transactions().get("C").counts().total();
        assertTrue(a - c >= 0 && a - c <= 2, "A " + a + ", C " + c + ": A leads by at most one per terminal");
    }

    /** A think time longer than what is left of a time phase ends with the phase: the next phase has its terminal. */
    @Test
    void aLongThinkTimeEndsWithItsPhase() throws Exception {
        PhaseConfig first = phase(1, 0, RateSpec.unlimited(), 1, false, 3000, 100);
        PhaseConfig second = new PhaseConfig(1, "phase1", 0, 50, 0, RateSpec.unlimited(), ArrivalKind.REGULAR,
                List.of(100.0), 1, false, 0, Map.of());
        List<PhaseConfig> phases = List.of(first, second);
        StatsCollector collector = collector(phases, 1);
        long t0 = System.nanoTime();
        new WorkloadManager(phases, List.of(new TransactionTypeConfig("A", 0, 0)), 1, 1, collector, Clock.SYSTEM,
                EngineOptions.defaults()).run(id -> new NoopTerminal());
        double seconds = (System.nanoTime() - t0) / 1e9;
        collector.close();
        assertEquals(1, collector.summaries().get(0).counts().total(), "one operation, then the 3 s think time");
        assertEquals(50, collector.summaries().get(1).counts().total());
        // Without the early end the terminal would sleep until 3 s and only then run the second phase.
        assertTrue(seconds < 2.0, "took " + seconds + " s");
    }
}
