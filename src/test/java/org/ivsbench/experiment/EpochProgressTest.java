package org.ivsbench.experiment;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The progress lines' time left, on a virtual clock: epochs whose durations grow, epochs of constant length, a slow
 * first epoch and one unusual epoch among steady ones.
 */
class EpochProgressTest {
    private long now;

    /** Runs epoch {@code e} of {@code phases} equal phases lasting {@code seconds} in all. */
    private void epoch(EpochProgress p, int e, int phases, long seconds) {
        for (int i = 0; i < phases; i++) {
            now += seconds * 1_000_000_000L / phases;
            p.phaseDone();
        }
        p.epochDone(e);
    }

    @Test
    void growingEpochsAreExtrapolatedAlongTheirTrend() {
        // epochs 1..10 of 5 phases; epoch e lasts 10 + 2e seconds: after 5 epochs, what is left is
        // sum over e = 6..10 of (10 + 2e) = 50 + 2 * 40 = 130 s - the time per phase so far would say 5 * 16 = 80
        EpochProgress p = new EpochProgress(() -> now, 1, 10, 5);
        for (int e = 1; e <= 5; e++) {
            epoch(p, e, 5, 10 + 2 * e);
        }
        assertEquals(130, p.etaSeconds());
        // two of epoch 6's five phases done: two fifths of its 22 s spent, 130 - 8.8
        now += 8_000_000_000L;
        p.phaseDone();
        p.phaseDone();
        assertEquals(121, p.etaSeconds());
    }

    @Test
    void beforeTheTrendTheTimePerPhaseSoFarCounts() {
        EpochProgress p = new EpochProgress(() -> now, 3, 12, 4);
        assertEquals(0, p.etaSeconds(), "nothing measured yet");
        epoch(p, 3, 4, 40);
        // 10 s per phase, 9 epochs of 4 phases left
        assertEquals(360, p.etaSeconds());
        now += 10_000_000_000L;
        p.phaseDone();
        assertEquals(350, p.etaSeconds());
    }

    @Test
    void epochsGettingShorterCountAsFlat() {
        // durations 30, 28, 26, 24, 22: a falling line would promise negative epochs; the trend (epochs 2-5) is flat
        // at the median of 28, 26, 24, 22: 25 s for each of epochs 6 and 7
        EpochProgress p = new EpochProgress(() -> now, 1, 7, 2);
        for (int e = 1; e <= 5; e++) {
            epoch(p, e, 2, 32 - 2 * e);
        }
        assertEquals(50, p.etaSeconds());
    }

    @Test
    void aSlowStartAndOneUnusualEpochDoNotTiltTheTrend() {
        // epoch 1 takes 5 s (start-up), epochs 2-6 take 20, 20, 60, 20, 20: the pairwise slopes' median is 0 and
        // the line 20 s, so epochs 7..20 leave 14 * 20 = 280 s. Least squares from epoch 1 on would slope upwards
        // and promise more with every epoch to come.
        EpochProgress p = new EpochProgress(() -> now, 1, 20, 4);
        epoch(p, 1, 4, 5);
        long[] next = {20, 20, 60, 20, 20};
        for (int i = 0; i < next.length; i++) {
            epoch(p, i + 2, 4, next[i]);
        }
        assertEquals(280, p.etaSeconds());
    }

    @Test
    void durationsPrintAsHoursMinutesSeconds() {
        assertEquals("0:00:00", EpochProgress.duration(0));
        assertEquals("1:01:01", EpochProgress.duration(3661));
    }
}
