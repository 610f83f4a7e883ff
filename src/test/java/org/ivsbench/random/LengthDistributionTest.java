package org.ivsbench.random;

import java.util.SplittableRandom;
import java.util.function.DoubleUnaryOperator;

import org.apache.commons.statistics.distribution.NormalDistribution;
import org.apache.commons.statistics.distribution.PoissonDistribution;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.ivsbench.random.KeyDistributionsFitTest.assertFits;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Value lengths: constant draws nothing; the shapes fit on 100,000 draws, within [min, max]. */
class LengthDistributionTest {
    private static final int CAP = 1_600_000;

    @Test
    void constantIsTheConfiguredLengthAndDrawsNothing() {
        LengthDistribution d = LengthDistribution.parse("constant", 100, 0, CAP, CAP);
        SplittableRandom a = new SplittableRandom(1);
        SplittableRandom b = new SplittableRandom(1);
        assertEquals(100, d.next(a));
        assertEquals(b.nextLong(), a.nextLong(), "the stream did not move");
        assertTrue(d.constant());
        assertEquals(100.0, d.mean());
    }

    @Test
    void shapesFitWithinMinAndMax() {
        assertFits("uniform", chiSquare("uniform(min=10, max=40)", 10, 40, k -> 1.0 / 31));
        NormalDistribution normal = NormalDistribution.of(100, 20);
        double kept = normal.cumulativeProbability(150.5) - normal.cumulativeProbability(59.5);
        assertFits(
                "normal",
                chiSquare(
                        "normal(mean=100, stddev=20, min=60, max=150)",
                        60,
                        150,
                        k -> (normal.cumulativeProbability(k + 0.5) - normal.cumulativeProbability(k - 0.5)) / kept));
        PoissonDistribution poisson = PoissonDistribution.of(50);
        double poissonKept = poisson.cumulativeProbability(200) - poisson.cumulativeProbability(0);
        assertFits("poisson", chiSquare("poisson(mean=50)", 1, 200, k -> poisson.probability((int) k) / poissonKept));
        double[] ranks = KeyDistributionsFitTest.zipfRanks(91, 0.9);
        assertFits("zipfian", chiSquare("zipfian(theta=0.9, min=10, max=100)", 10, 100, k -> ranks[(int) k - 10]));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "exponential(mean=30, min=1, max=200)",
                "lognormal(mu=4, sigma=0.3, min=1, max=200)",
                "pareto(scale=20, shape=2, min=20, max=200)",
                "weibull(shape=2, scale=80, min=1, max=200)",
                "normal(mean=100, stddev=50, min=1, max=200)"
            })
    void continuousShapesFitRoundedToWholeBytes(String text) {
        LengthDistribution d = LengthDistribution.parse(text, 100, 1, CAP, CAP);
        Shapes.Truncated t = new Shapes.Truncated(Shapes.continuous(d.spec()), d.min() - 0.5, d.max() + 0.5, "test");
        assertFits(text, chiSquare(text, d.min(), d.max(), k -> t.cdf(k + 0.5) - t.cdf(k - 0.5)));
    }

    @Test
    void betaSpreadsOverMinToMax() {
        String text = "beta(alpha=2, beta=5, min=10, max=109)";
        Shapes.Truncated t = new Shapes.Truncated(
                Shapes.continuous(
                        LengthDistribution.parse(text, 100, 1, CAP, CAP).spec()),
                0,
                1,
                "test");
        assertFits(text, chiSquare(text, 10, 109, k -> t.cdf((k - 9) / 100.0) - t.cdf((k - 10) / 100.0)));
    }

    @Test
    void meanIsTheExpectedLength() {
        LengthDistribution d = LengthDistribution.parse("normal(mean=100, stddev=20)", 100, 0, CAP, CAP);
        assertEquals(100, d.mean(), 0.5);
        assertEquals(
                55,
                LengthDistribution.parse("uniform(min=10, max=100)", 100, 1, CAP, CAP)
                        .mean(),
                0.5);
    }

    @Test
    void rejectsBadLengths() {
        assertEquals("max=5 must be >= min=10", error("uniform(min=10, max=5)"));
        assertEquals("normal needs parameter stddev (> 0); it takes mean, stddev, min, max", error("normal(mean=5)"));
        assertEquals("max=2000000 must be <= 1600000", error("uniform(max=2000000)"));
        assertEquals("puts no probability on lengths [1, 1600000]", error("normal(mean=-1e9, stddev=1)"));
        assertTrue(error("histogram").startsWith("unknown length distribution 'histogram'; valid: constant, uniform"));
    }

    private static String error(String text) {
        return assertThrows(IllegalArgumentException.class, () -> LengthDistribution.parse(text, 100, 1, CAP, CAP))
                .getMessage();
    }

    /** Extends (lowest length 1) drawn 100,000 times, against the share of each length in [lo, hi]. */
    private static double chiSquare(String text, int lo, int hi, DoubleUnaryOperator share) {
        LengthDistribution d = LengthDistribution.parse(text, 100, 1, CAP, CAP);
        SplittableRandom r = Seeds.forStream(5, "lengths", 0);
        long[] observed = new long[hi - lo + 1];
        for (int i = 0; i < KeyDistributionsFitTest.DRAWS; i++) {
            int length = d.next(r);
            assertTrue(length >= lo && length <= hi, text + " drew " + length);
            observed[length - lo]++;
        }
        return KeyDistributionsFitTest.chiSquare(observed, k -> share.applyAsDouble(k + lo));
    }
}
