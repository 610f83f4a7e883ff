package org.ivsbench.engine;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import org.ivsbench.config.ArrivalKind;
import org.ivsbench.config.RampConfig;
import org.ivsbench.config.RateRamp;
import org.ivsbench.random.Seeds;

import static org.ivsbench.engine.EngineRun.SECOND;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The arrival timeline of a ramped rate: counts per second are the integral of the rate, exactly. */
class RampArrivalsTest {
    private static final RampConfig LINEAR = new RampConfig(RampConfig.Shape.LINEAR, 0, 300, List.of(), Map.of());

    /** Arrivals per second of [0, seconds) from the phase start, for a timeline starting at 0. */
    private static long[] perSecond(ArrivalProcess arrivals, int seconds) {
        long[] counts = new long[seconds];
        for (long t = arrivals.current(); t < seconds * SECOND; t = arrivals.current()) {
            counts[(int) (t / SECOND)]++;
            arrivals.advance();
        }
        return counts;
    }

    @Test
    void aLinearRampFrom100To300Over10SecondsHasTheIntegralInEverySecond() {
        ArrivalProcess arrivals = new ArrivalProcess(
                0, 100, ArrivalKind.REGULAR, new SplittableRandom(1), new RateRamp(100, 300, 10, LINEAR), 0);
        // The rate is 100 + 20 t, so second i holds 100 + 20 (i + 0.5) = 110 + 20 i arrivals; 2,000 in all.
        long[] expected = {110, 130, 150, 170, 190, 210, 230, 250, 270, 290};
        long[] counts = perSecond(arrivals, 10);
        assertArrayEquals(expected, counts);
        assertEquals(2000, Arrays.stream(counts).sum());
        // After the ramp the target rate holds.
        assertEquals(10 * SECOND, arrivals.current(), "the 2,001st arrival comes at the end of the ramp");
    }

    @Test
    void warmupRunsAtThePhaseRateAndTheRampStartsWithTheMeasuredPart() {
        ArrivalProcess arrivals = new ArrivalProcess(
                0, 100, ArrivalKind.REGULAR, new SplittableRandom(1), new RateRamp(100, 300, 10, LINEAR), 2);
        long[] counts = perSecond(arrivals, 12);
        assertArrayEquals(new long[] {100, 100, 110, 130, 150, 170, 190, 210, 230, 250, 270, 290}, counts);
    }

    @Test
    void aDecreasingRampIsExactToo() {
        RampConfig down = new RampConfig(RampConfig.Shape.LINEAR, 0, 100, List.of(), Map.of());
        ArrivalProcess arrivals = new ArrivalProcess(
                0, 300, ArrivalKind.REGULAR, new SplittableRandom(1), new RateRamp(300, 100, 10, down), 0);
        assertArrayEquals(new long[] {290, 270, 250, 230, 210, 190, 170, 150, 130, 110}, perSecond(arrivals, 10));
    }

    @Test
    void aStepRampHoldsEachRateForItsStep() {
        // 10 s in steps of 2 s: five rates evenly from 100 to 300, the first the phase's, the last the target.
        RampConfig step = new RampConfig(RampConfig.Shape.STEP, 2, 300, List.of(), Map.of());
        ArrivalProcess arrivals = new ArrivalProcess(
                0, 100, ArrivalKind.REGULAR, new SplittableRandom(1), new RateRamp(100, 300, 10, step), 0);
        assertArrayEquals(new long[] {100, 100, 150, 150, 200, 200, 250, 250, 300, 300}, perSecond(arrivals, 10));
        // A last step shorter than the others (10 s in steps of 3 s: 3, 3, 3, 1).
        RampConfig uneven = new RampConfig(RampConfig.Shape.STEP, 3, 400, List.of(), Map.of());
        arrivals = new ArrivalProcess(
                0, 100, ArrivalKind.REGULAR, new SplittableRandom(1), new RateRamp(100, 400, 10, uneven), 0);
        assertArrayEquals(new long[] {100, 100, 100, 200, 200, 200, 300, 300, 300, 400}, perSecond(arrivals, 10));
    }

    @Test
    void rampedPoissonArrivalsAreTheUnitProcessTimeChanged() {
        // Time change: the arrivals before t are the points of a unit-rate Poisson process (from the same seeded
        // stream) below the integral of the rate up to t; the count follows a Poisson law with that mean.
        long seed = 5;
        RateRamp ramp = new RateRamp(100, 300, 10, LINEAR);
        ArrivalProcess arrivals =
                new ArrivalProcess(0, 100, ArrivalKind.POISSON, Seeds.forStream(seed, "arrivals", 0), ramp, 0);
        long[] counts = perSecond(arrivals, 10);
        SplittableRandom unit = Seeds.forStream(seed, "arrivals", 0);
        long[] expected = new long[10];
        double point = -Math.log(1.0 - unit.nextDouble());
        while (point < ramp.arrivalsUntil(10)) {
            int second = 0;
            while (ramp.arrivalsUntil(second + 1) <= point) {
                second++;
            }
            expected[second]++;
            point += -Math.log(1.0 - unit.nextDouble());
        }
        assertArrayEquals(expected, counts);
        long total = Arrays.stream(counts).sum();
        // Mean 2,000, standard deviation about 45: five deviations is a bound no seed should ever cross.
        assertTrue(Math.abs(total - 2000) < 225, "total " + total);
        assertTrue(counts[9] > 2 * counts[0], "the rate rises: " + Arrays.toString(counts));
    }

    @Test
    void theBacklogBoundUsesTheLowerRate() {
        ArrivalProcess arrivals = new ArrivalProcess(
                0, 100, ArrivalKind.REGULAR, new SplittableRandom(1), new RateRamp(100, 300, 10, LINEAR), 0);
        assertEquals(10_000_000L, arrivals.periodNanos());
    }
}
