package org.ivsbench.random;

import java.util.SplittableRandom;
import java.util.function.DoubleUnaryOperator;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.ivsbench.random.KeyDistributionsFitTest.assertFits;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Value lengths: constant draws nothing; the shapes fit on 100,000 draws, within [min, max]. Each shape is graded
 * against a CDF or probability written out here from its textbook definition with the parameters typed in (not
 * the Commons Statistics object that draws), so a sampler that swaps or misroutes a parameter fails.
 */
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
        DoubleUnaryOperator normal = KeyDistributionsFitTest.normal(100, 20);
        double kept = normal.applyAsDouble(150.5) - normal.applyAsDouble(59.5);
        assertFits(
                "normal",
                chiSquare(
                        "normal(mean=100, stddev=20, min=60, max=150)",
                        60,
                        150,
                        k -> (normal.applyAsDouble(k + 0.5) - normal.applyAsDouble(k - 0.5)) / kept));
        double[] poisson = poissonPmf(50, 200);
        double poissonKept = 0;
        for (int k = 1; k <= 200; k++) {
            poissonKept += poisson[k];
        }
        double poissonShare = poissonKept;
        assertFits("poisson", chiSquare("poisson(mean=50)", 1, 200, k -> poisson[(int) k] / poissonShare));
        double[] ranks = KeyDistributionsFitTest.zipfRanks(91, 0.9);
        assertFits("zipfian", chiSquare("zipfian(theta=0.9, min=10, max=100)", 10, 100, k -> ranks[(int) k - 10]));
    }

    /** The continuous shapes, each with its CDF from the textbook definition, parameters typed in. */
    static Stream<Arguments> continuousShapes() {
        return Stream.of(
                Arguments.of("exponential(mean=30, min=1, max=200)", (DoubleUnaryOperator) x -> 1 - Math.exp(-x / 30)),
                Arguments.of("lognormal(mu=4, sigma=0.3, min=1, max=200)", (DoubleUnaryOperator)
                        x -> x <= 0 ? 0 : KeyDistributionsFitTest.phi((Math.log(x) - 4) / 0.3)),
                Arguments.of("pareto(scale=20, shape=2, min=20, max=200)", (DoubleUnaryOperator)
                        x -> x < 20 ? 0 : 1 - Math.pow(20 / x, 2)),
                Arguments.of("weibull(shape=2, scale=80, min=1, max=200)", (DoubleUnaryOperator)
                        x -> x <= 0 ? 0 : 1 - Math.exp(-Math.pow(x / 80, 2))),
                Arguments.of("normal(mean=100, stddev=50, min=1, max=200)", KeyDistributionsFitTest.normal(100, 50)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("continuousShapes")
    void continuousShapesFitRoundedToWholeBytes(String text, DoubleUnaryOperator cdf) {
        LengthDistribution d = LengthDistribution.parse(text, 100, 1, CAP, CAP);
        // Lengths are the draws rounded to whole bytes, truncated to [min, max]: length k holds [k - 0.5, k + 0.5).
        double lo = cdf.applyAsDouble(d.min() - 0.5);
        double width = cdf.applyAsDouble(d.max() + 0.5) - lo;
        assertFits(
                text,
                chiSquare(
                        text,
                        d.min(),
                        d.max(),
                        k -> (cdf.applyAsDouble(k + 0.5) - cdf.applyAsDouble(k - 0.5)) / width));
    }

    @Test
    void betaSpreadsOverMinToMax() {
        String text = "beta(alpha=2, beta=5, min=10, max=109)";
        // I_x(2, 5) = P(Binomial(6, x) >= 2); length k holds the unit interval's [(k - 10) / 100, (k - 9) / 100).
        assertFits(
                text,
                chiSquare(
                        text,
                        10,
                        109,
                        k -> KeyDistributionsFitTest.binomialTail(6, 2, (k - 9) / 100.0)
                                - KeyDistributionsFitTest.binomialTail(6, 2, (k - 10) / 100.0)));
    }

    /** P(Poisson(mean) = k) for k in [0, n], by the recurrence p(k) = p(k - 1) * mean / k from p(0) = e^-mean. */
    private static double[] poissonPmf(double mean, int n) {
        double[] p = new double[n + 1];
        p[0] = Math.exp(-mean);
        for (int k = 1; k <= n; k++) {
            p[k] = p[k - 1] * mean / k;
        }
        return p;
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
