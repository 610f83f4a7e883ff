package org.ivsbench.config;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class RampConfigTest {
    @Test
    void linearMovesWithTimeAndHoldsTheTargetAfterwards() {
        RampConfig linear = new RampConfig(RampConfig.Shape.LINEAR, 0, 300, List.of(), Map.of());
        assertEquals(0, linear.fraction(-1, 10), "warmup");
        assertEquals(0.25, linear.fraction(2.5, 10));
        assertEquals(1, linear.fraction(12, 10));
    }

    @Test
    void stepGoesFromTheStartSettingToTheTargetInEqualSteps() {
        RampConfig step = new RampConfig(RampConfig.Shape.STEP, 2, 300, List.of(), Map.of());
        assertEquals(5, step.steps(10));
        assertEquals(0, step.fraction(1.99, 10));
        assertEquals(0.25, step.fraction(2, 10));
        assertEquals(0.75, step.fraction(7.5, 10));
        assertEquals(1, step.fraction(8, 10));
        assertEquals(1, step.fraction(11, 10));
        // 10 s in steps of 3 s: four settings, the last one second long.
        RampConfig uneven = new RampConfig(RampConfig.Shape.STEP, 3, 300, List.of(), Map.of());
        assertEquals(4, uneven.steps(10));
        assertEquals(1.0 / 3, uneven.fraction(3, 10));
        assertEquals(1, uneven.fraction(9.5, 10));
    }

    @Test
    void theRateIntegralAndItsInverseAgree() {
        RampConfig linear = new RampConfig(RampConfig.Shape.LINEAR, 0, 300, List.of(), Map.of());
        RateRamp rate = new RateRamp(100, 300, 10, linear);
        assertEquals(2000, rate.arrivalsUntil(10), 1e-9);
        assertEquals(-200, rate.arrivalsUntil(-2), 1e-9);
        assertEquals(2300, rate.arrivalsUntil(11), 1e-9);
        assertEquals(200, rate.rateAt(5), 1e-9);
        for (double t : new double[] {-1, 0.001, 0.5, 3.3, 9.99, 10, 12}) {
            assertEquals(t, rate.secondsAt(rate.arrivalsUntil(t)), 1e-9, "t=" + t);
        }
        RateRamp step = new RateRamp(100, 300, 10, new RampConfig(RampConfig.Shape.STEP, 2, 300, List.of(), Map.of()));
        assertEquals(2000, step.arrivalsUntil(10), 1e-9);
        for (double t : new double[] {0.5, 2, 3.3, 8, 9.99, 12}) {
            assertEquals(t, step.secondsAt(step.arrivalsUntil(t)), 1e-9, "t=" + t);
        }
    }
}
