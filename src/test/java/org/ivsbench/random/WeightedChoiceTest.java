package org.ivsbench.random;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class WeightedChoiceTest {
    @Test
    void drawsInProportionToWeightsAndNeverPicksZeroWeights() {
        double[] weights = {50, 0, 30, 0, 15, 5, 0};
        WeightedChoice choice = new WeightedChoice(weights);
        SplittableRandom r = new SplittableRandom(31);
        int draws = 1_000_000;
        int[] counts = new int[weights.length];
        for (int i = 0; i < draws; i++) {
            counts[choice.next(r)]++;
        }
        for (int i = 0; i < weights.length; i++) {
            assertEquals(weights[i] / 100, (double) counts[i] / draws, 0.003, "index " + i);
            if (weights[i] == 0) {
                assertEquals(0, counts[i], "zero-weight index " + i + " was drawn");
            }
        }
    }

    @Test
    void singleWeightAlwaysWinsAndLeadingZerosAreSkipped() {
        SplittableRandom r = new SplittableRandom(32);
        WeightedChoice choice = new WeightedChoice(0, 0, 100);
        for (int i = 0; i < 1000; i++) {
            assertEquals(2, choice.next(r));
        }
        assertEquals(3, choice.size());
    }

    @Test
    void weightsAreNormalisedBySum() {
        WeightedChoice choice = new WeightedChoice(1, 3);
        SplittableRandom r = new SplittableRandom(33);
        int ones = 0;
        for (int i = 0; i < 400_000; i++) {
            ones += choice.next(r);
        }
        assertEquals(0.75, ones / 400_000.0, 0.005);
    }

    @Test
    void rejectsNegativeNonFiniteAllZeroAndEmptyWeights() {
        assertThrows(IllegalArgumentException.class, () -> new WeightedChoice(50, -1, 51));
        assertThrows(IllegalArgumentException.class, () -> new WeightedChoice(0, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new WeightedChoice(Double.NaN, 100));
        assertThrows(IllegalArgumentException.class, () -> new WeightedChoice(Double.POSITIVE_INFINITY));
        assertThrows(IllegalArgumentException.class, WeightedChoice::new);
        assertThrows(IllegalArgumentException.class, () -> new WeightedChoice((double[]) null));
    }
}
