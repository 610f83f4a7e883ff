package org.ivsbench.stats;

import java.util.List;

import org.junit.jupiter.api.Test;

import org.ivsbench.op.Outcome;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Slices of one phase added up: the sum equals one collector that recorded every operation, except that its
 * measured seconds are the slices' added (not the wall-clock span between them).
 */
class PhaseStatsInSequenceTest {
    private static void record(PhaseStats p, int type, Outcome o, long micros, long size) {
        p.record(type, o, micros * 1000, micros * 1000 / 2, 10, 0, o == Outcome.OK ? null : "boom", size);
    }

    @Test
    void theSumOfSlicesIsOnePhase() {
        List<String> types = List.of("R", "U");
        PhaseStats a = new PhaseStats(0, "run", types);
        PhaseStats b = new PhaseStats(0, "run", types);
        PhaseStats whole = new PhaseStats(0, "run", types);
        for (int i = 1; i <= 300; i++) {
            PhaseStats part = i <= 100 ? a : b;
            Outcome o = i % 50 == 0 ? Outcome.ERROR : Outcome.OK;
            record(part, i % 3 == 0 ? 1 : 0, o, i * 7L, i * 100L);
            record(whole, i % 3 == 0 ? 1 : 0, o, i * 7L, i * 100L);
        }
        a.recordWarmup();
        b.recordMissed(5_000_000);
        whole.recordWarmup();
        whole.recordMissed(5_000_000);
        a.markStarted(1_000, 2_000);
        a.drain(0, 1000);
        a.markScheduleEnded(12_000, 10.0);
        b.markStarted(50_000, 50_000);
        b.drain(0, 1000);
        b.markScheduleEnded(70_000, 20.0);
        whole.markStarted(1_000, 2_000);
        whole.drain(0, 1000);
        whole.markScheduleEnded(70_000, 30.0);

        PhaseSummary sum = PhaseStats.inSequence(List.of(a, b)).summary();
        PhaseSummary one = whole.summary();
        assertEquals(one.counts(), sum.counts());
        assertEquals(300, sum.counts().total());
        assertEquals(30.0, sum.measuredSeconds());
        assertEquals(10.0, sum.throughput(), 1e-9); // 300 operations in 30 measured seconds, not in 69 s of span
        assertEquals(one.responseTimeUs(), sum.responseTimeUs());
        assertEquals(one.serviceTimeUs(), sum.serviceTimeUs());
        assertEquals(one.startLagUs(), sum.startLagUs());
        assertEquals(one.missedLatenessUs(), sum.missedLatenessUs());
        assertEquals(1, sum.warmupOperations());
        assertEquals(1, sum.missed());
        assertEquals(one.bytesRead(), sum.bytesRead());
        assertEquals(one.transactions(), sum.transactions());
        assertEquals(2_000, sum.measuredStartMs());
        assertEquals(70_000, sum.endMs());
        assertEquals(whole.latencyBySize(), PhaseStats.inSequence(List.of(a, b)).latencyBySize());
    }

    @Test
    void partsOfOtherPhasesAreRefused() {
        PhaseStats a = new PhaseStats(0, "run", List.of("R"));
        PhaseStats b = new PhaseStats(0, "run", List.of("U"));
        assertThrows(IllegalArgumentException.class, () -> PhaseStats.inSequence(List.of(a, b)));
        assertThrows(IllegalArgumentException.class, () -> PhaseStats.inSequence(List.of()));
    }
}
