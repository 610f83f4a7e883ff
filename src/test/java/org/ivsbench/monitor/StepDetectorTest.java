package org.ivsbench.monitor;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class StepDetectorTest {
    private static final double NONE = Double.NaN;

    /** Feeds one point per second from t=0 (throughput, p99, missed); returns the seconds at which a step fired. */
    private static List<Integer> steps(StepDetector d, double[][] windows) {
        List<Integer> fired = new ArrayList<>();
        for (int i = 0; i < windows.length; i++) {
            Optional<StepDetector.Step> s =
                    d.add(new StepDetector.Point(i * 1000L, windows[i][0], windows[i][1], windows[i][2]));
            if (s.isPresent()) {
                fired.add(i);
            }
        }
        return fired;
    }

    private static double[][] steady(int n, double throughput, double p99) {
        double[][] w = new double[n][];
        for (int i = 0; i < n; i++) {
            // +-1 % jitter alternating: MAD about 1 % of the level
            w[i] = new double[] {throughput * (i % 2 == 0 ? 1.01 : 0.99), p99, 0};
        }
        return w;
    }

    private static double[][] concat(double[][]... parts) {
        List<double[]> all = new ArrayList<>();
        for (double[][] p : parts) {
            all.addAll(List.of(p));
        }
        return all.toArray(new double[0][]);
    }

    @Test
    void aThroughputCollapseOfTwoWindowsIsOneStepAtTheSecondWindow() {
        double[][] w = concat(
                steady(8, 1500, 2000), new double[][] {{10, NONE, 1490}, {0, NONE, 1500}}, steady(5, 1500, 2000));
        assertEquals(List.of(9), steps(new StepDetector(30_000), w));
    }

    @Test
    void oneOutlierWindowIsNoStep() {
        double[][] w = concat(steady(8, 1500, 2000), new double[][] {{300, 90_000, 0}}, steady(8, 1500, 2000));
        assertEquals(List.of(), steps(new StepDetector(30_000), w));
    }

    @Test
    void aLatencyStepAloneIsAStep() {
        double[][] w = concat(steady(6, 1500, 2000), new double[][] {{1500, 9000, 0}, {1500, 9500, 0}});
        assertEquals(List.of(7), steps(new StepDetector(30_000), w));
    }

    @Test
    void aChangeWithinThirtyPercentIsNoStepEvenWithZeroSpread() {
        // Perfectly steady (MAD 0): a 20 % dip passes the MAD rule but not the relative floor.
        double[][] w = new double[12][];
        for (int i = 0; i < w.length; i++) {
            w[i] = new double[] {i >= 6 ? 1200 : 1500, 1000, 0};
        }
        assertEquals(List.of(), steps(new StepDetector(30_000), w));
    }

    @Test
    void aFewMissedArrivalsAtFullThroughputAreNoStep() {
        double[][] w = concat(steady(6, 1500, 2000), new double[][] {{1500, 2000, 20}, {1500, 2000, 30}});
        assertEquals(List.of(), steps(new StepDetector(30_000), w));
    }

    @Test
    void noStepBeforeFiveWindowsOfHistory() {
        double[][] w = concat(steady(3, 1500, 2000), new double[][] {{0, NONE, 1500}, {0, NONE, 1500}});
        assertEquals(List.of(), steps(new StepDetector(30_000), w));
    }

    @Test
    void aLastingDepartureFiresOncePerInterval() {
        double[][] w = concat(steady(6, 1500, 2000), new double[][] {
            {100, 50_000, 0},
            {100, 50_000, 0},
            {1500, 2000, 0},
            {1500, 2000, 0},
            {1500, 2000, 0},
            {100, 50_000, 0},
            {100, 50_000, 0}
        });
        List<Integer> withCooldown = steps(new StepDetector(30_000), w);
        assertEquals(List.of(7), withCooldown);
        List<Integer> without = steps(new StepDetector(0), w);
        assertEquals(List.of(7, 12), without);
    }

    @Test
    void aStallRightAfterALatencyWobbleIsStillAStep() {
        // A p99-only step (a noisy neighbour), then within the interval throughput collapses (a held lock): the
        // collapse is a step of its own, and the wobble does not use up its budget; a second wobble does not fire.
        double[][] w = concat(steady(6, 1500, 2000), new double[][] {
            {1500, 9000, 0},
            {1500, 9500, 0},
            {1500, 2000, 0},
            {1500, 2000, 0},
            {10, NONE, 1490},
            {0, NONE, 1500},
            {1500, 2000, 0},
            {1500, 2000, 0},
            {1500, 2000, 0},
            {1500, 2000, 0},
            {1500, 2000, 0},
            {1500, 2000, 0},
            {1500, 9000, 0},
            {1500, 9500, 0}
        });
        assertEquals(List.of(7, 11), steps(new StepDetector(30_000), w));
    }

    @Test
    void theBudgetHoldsBackLatencyStepsAfterAnyStepAndServiceStepsAfterServiceSteps() {
        StepBudget b = new StepBudget(30_000);
        assertEquals(true, b.take(0, false));
        assertEquals(false, b.take(1_000, false), "a second latency step within the interval");
        assertEquals(true, b.take(2_000, true), "a service step after a latency one");
        assertEquals(false, b.take(3_000, true), "a second service step within the interval");
        assertEquals(false, b.take(4_000, false), "a latency step after a service one");
        assertEquals(true, b.take(32_000, true));
        assertEquals(true, b.take(62_000, false));
    }

    @Test
    void theTriggerNamesTheFiguresAndTheLevel() {
        StepDetector d = new StepDetector(0);
        Optional<String> last = Optional.empty();
        for (double[] p : concat(steady(6, 1000, 2000), new double[][] {{100, 2000, 0}, {100, 2000, 0}})) {
            last = d.add(new StepDetector.Point(0, p[0], p[1], p[2])).map(StepDetector.Step::trigger);
        }
        // History at the second window: 1010, 990, 1010, 990, 1010, 990, 100 -> median 990; deviations
        // 20, 0, 20, 0, 20, 0, 890 -> MAD 20.
        assertEquals(Optional.of("throughput 100.0 vs recent median 990.0 (MAD 20.0)"), last);
    }
}
