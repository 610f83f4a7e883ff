package org.ivsbench.random;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RampedChoiceTest {
    private final RampedChoice choice = new RampedChoice(new double[] {90, 10, 0}, new double[] {10, 50, 40});

    @Test
    void theMixAtAFractionIsBetweenTheEnds() {
        assertArrayEquals(new double[] {90, 10, 0}, choice.weightsAt(0));
        assertArrayEquals(new double[] {50, 30, 20}, choice.weightsAt(0.5), 1e-12);
        assertArrayEquals(new double[] {10, 50, 40}, choice.weightsAt(1));
        assertArrayEquals(new double[] {90, 10, 0}, choice.weightsAt(-1), "warmup: the phase's own mix");
    }

    @Test
    void drawsFollowTheMixAtTheirFractionAndAZeroWeightIsNeverDrawn() {
        SplittableRandom r = new SplittableRandom(7);
        int n = 100_000;
        int[] atStart = new int[3];
        int[] atMiddle = new int[3];
        for (int i = 0; i < n; i++) {
            atStart[choice.next(r, 0)]++;
            atMiddle[choice.next(r, 0.5)]++;
        }
        assertEquals(0, atStart[2], "weight 0 at the start");
        // Binomial standard deviation at most 160 of 100,000: a band of five.
        assertTrue(Math.abs(atStart[0] - 90_000) < 800, "" + atStart[0]);
        assertTrue(Math.abs(atMiddle[0] - 50_000) < 800, "" + atMiddle[0]);
        assertTrue(Math.abs(atMiddle[1] - 30_000) < 800, "" + atMiddle[1]);
        assertTrue(Math.abs(atMiddle[2] - 20_000) < 800, "" + atMiddle[2]);
    }

    @Test
    void badEndsAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> new RampedChoice(new double[] {1}, new double[] {1, 2}));
        assertThrows(IllegalArgumentException.class, () -> new RampedChoice(new double[] {0, 0}, new double[] {1, 2}));
    }
}
