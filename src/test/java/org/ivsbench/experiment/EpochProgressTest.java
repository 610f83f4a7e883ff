package org.ivsbench.experiment;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The progress lines' time left, on a virtual clock: epochs whose durations grow, and epochs of constant length. */
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
        // epochs 1..10 of 5 phases; epoch e lasts 10 + 2e seconds: after 4 epochs, what is left is
        // sum over e = 5..10 of (10 + 2e) = 60 + 2 * 45 = 150 s - the time per phase so far would say 6 * 15 = 90
        EpochProgress p = new EpochProgress(() -> now, 1, 10, 5);
        for (int e = 1; e <= 4; e++) {
            epoch(p, e, 5, 10 + 2 * e);
        }
        assertEquals(150, p.etaSeconds());
        // two of epoch 5's five phases done (its 20 s, 8 spent): 150 - 8
        now += 8_000_000_000L;
        p.phaseDone();
        p.phaseDone();
        assertEquals(142, p.etaSeconds());
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
        // durations 30, 28, 26, 24: a falling line would promise negative epochs; their mean (27 s) per epoch instead
        EpochProgress p = new EpochProgress(() -> now, 1, 6, 2);
        for (int e = 1; e <= 4; e++) {
            epoch(p, e, 2, 32 - 2 * e);
        }
        assertEquals(54, p.etaSeconds());
    }

    @Test
    void durationsPrintAsHoursMinutesSeconds() {
        assertEquals("0:00:00", EpochProgress.duration(0));
        assertEquals("1:01:01", EpochProgress.duration(3661));
    }
}
