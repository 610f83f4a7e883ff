package org.ivsbench.random;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.DoubleUnaryOperator;
import java.util.function.IntToDoubleFunction;
import java.util.stream.Stream;

import org.apache.commons.statistics.inference.ChiSquareTest;
import org.apache.commons.statistics.inference.KolmogorovSmirnovTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Goodness of fit of every key distribution on 100,000 seeded draws: Kolmogorov-Smirnov of the continuous
 * draws against the analytic CDF written out in this test (truncated to [0, 1)), chi-square of the keys they become against the
 * expected share of each key. The streams are fixed, so each p-value is a fixed number; the threshold 0.001
 * only says how far from the distribution a correct sampler could plausibly land.
 */
class KeyDistributionsFitTest {
    static final int DRAWS = 100_000;
    static final double ALPHA = 0.001;
    private static final int KEYS = 100;

    /**
     * Each continuous shape with its CDF written out here from the textbook definition, parameters typed in, not
     * read from the parsed spec nor from Commons Statistics: a sampler that passes its parameters in the wrong
     * order, or to the wrong distribution, draws from another CDF and fails.
     */
    static Stream<Arguments> continuousShapes() {
        return Stream.of(
                Arguments.of("normal", normal(0.5, 0.1)), // the defaults
                Arguments.of("normal(mean=0.5, stddev=0.05)", normal(0.5, 0.05)),
                // Integer parameters: I_x(a, b) = P(Binomial(a + b - 1, x) >= a).
                Arguments.of("beta", (DoubleUnaryOperator) x -> binomialTail(6, 2, x)), // alpha 2, beta 5
                Arguments.of(
                        "beta(alpha=0.5, beta=0.5)", // the arcsine distribution
                        (DoubleUnaryOperator) x -> 2 / Math.PI * Math.asin(Math.sqrt(x))),
                Arguments.of("exponential(mean=0.1)", (DoubleUnaryOperator) x -> 1 - Math.exp(-x / 0.1)),
                Arguments.of("lognormal(mu=-1.5, sigma=0.6)", (DoubleUnaryOperator)
                        x -> x <= 0 ? 0 : phi((Math.log(x) + 1.5) / 0.6)),
                Arguments.of("pareto(scale=0.05, shape=1.5)", (DoubleUnaryOperator)
                        x -> x < 0.05 ? 0 : 1 - Math.pow(0.05 / x, 1.5)),
                Arguments.of("weibull(shape=1.5, scale=0.3)", (DoubleUnaryOperator)
                        x -> 1 - Math.exp(-Math.pow(x / 0.3, 1.5))),
                Arguments.of("normal(mean=0.95, stddev=0.2)", normal(0.95, 0.2)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("continuousShapes")
    void continuousDrawsFollowTheTruncatedCdf(String expression, DoubleUnaryOperator cdf) {
        DistributionSpec spec = KeyDistributions.parse(expression);
        Shapes.Truncated unit = KeyDistributions.unitInterval(spec);
        DoubleUnaryOperator truncated = truncatedToUnit(cdf);
        SplittableRandom r = Seeds.forStream(7, "fit", 0);
        double[] draws = new double[DRAWS];
        for (int i = 0; i < DRAWS; i++) {
            draws[i] = unit.at(r.nextDouble());
            assertTrue(draws[i] >= 0 && draws[i] < 1, expression + " drew " + draws[i]);
        }
        assertFits(
                expression,
                KolmogorovSmirnovTest.withDefaults().test(draws, truncated).getPValue());
        if (!spec.name().equals("exponential")) {
            // Keys in key order: key k holds [k/n, (k+1)/n). (exponential counts back from the newest key.)
            assertFits(
                    expression + " keys",
                    chiSquare(
                            KeyDistributions.generator(spec, KEYS, null, new ZetaCache()),
                            k -> truncated.applyAsDouble((k + 1.0) / KEYS) - truncated.applyAsDouble(k / KEYS)));
        } else {
            assertFits(
                    expression + " keys",
                    chiSquare(
                            KeyDistributions.generator(spec, KEYS, null, new ZetaCache()),
                            k -> truncated.applyAsDouble((KEYS - k) / KEYS)
                                    - truncated.applyAsDouble((KEYS - 1.0 - k) / KEYS)));
        }
    }

    @Test
    void theHandWrittenNormalCdfMatchesPublishedValues() {
        // 0.5 * erfc(-z / sqrt(2)) from Python 3.11's math.erfc (the C library's erfc), printed with repr().
        double[][] table = {
            {-3, 0.0013498980316300957},
            {-1.5, 0.06680720126885809},
            {-0.5, 0.3085375387259869},
            {0, 0.5},
            {0.25, 0.5987063256829237},
            {1, 0.8413447460685429},
            {1.96, 0.9750021048517795},
            {3, 0.9986501019683699},
            {5, 0.9999997133484281}
        };
        for (double[] row : table) {
            assertEquals(row[1], phi(row[0]), 1e-14, "Phi(" + row[0] + ")");
        }
        // The binomial form of the beta CDF against its defining integral, x^1 (1-x)^4 / B(2, 5) = 30 x (1-x)^4,
        // integrated by hand: F(x) = 1 - (1-x)^5 (1 + 5x).
        for (double x = 0; x <= 1; x += 0.125) {
            assertEquals(1 - Math.pow(1 - x, 5) * (1 + 5 * x), binomialTail(6, 2, x), 1e-15, "beta(2,5) at " + x);
        }
    }

    @Test
    void theTestRejectsAWrongDistribution() {
        // The same machinery must notice a shift of a tenth of a standard deviation, or 10 % more draws on half
        // the keys.
        Shapes.Truncated unit = KeyDistributions.unitInterval(KeyDistributions.parse("normal(mean=0.5,stddev=0.1)"));
        SplittableRandom r = Seeds.forStream(7, "fit", 0);
        double[] draws = new double[DRAWS];
        for (int i = 0; i < DRAWS; i++) {
            draws[i] = unit.at(r.nextDouble());
        }
        double p = KolmogorovSmirnovTest.withDefaults()
                .test(draws, truncatedToUnit(normal(0.51, 0.1)))
                .getPValue();
        assertTrue(p < 1e-9, "p " + p);
        assertTrue(chiSquare(
                        KeyDistributions.generator(KeyDistributions.parse("uniform"), KEYS, null, null),
                        k -> k < KEYS / 2 ? 0.011 : 0.009)
                < 1e-9);
    }

    @Test
    void uniformHotspotAndPoissonMatchTheirShares() {
        assertFits("uniform", chiSquare(generator("uniform"), k -> 1.0 / KEYS));
        // 30 hot keys get 90 % of the draws, uniformly; the other 70 the rest.
        assertFits("hotspot", chiSquare(generator("hotspot(set=0.3, ops=0.9)"), k -> k < 30 ? 0.9 / 30 : 0.1 / 70));
        assertFits("hotspot plain", chiSquare(generator("hotspot"), k -> k < 20 ? 0.8 / 20 : 0.2 / 80));
        // Poisson(40) restricted to the keys 0..99: e^-40 40^k / k!, over its sum on those keys.
        double[] poisson = new double[KEYS];
        double kept = 0;
        for (int k = 0; k < KEYS; k++) {
            poisson[k] = Math.exp(-40 + k * Math.log(40) - logFactorial(k));
            kept += poisson[k];
        }
        double sum = kept;
        assertFits("poisson", chiSquare(generator("poisson(mean=40)"), k -> poisson[(int) k] / sum));
    }

    @Test
    void sequentialVisitsEveryKeyInTurn() {
        LongGenerator g = generator("sequential");
        SplittableRandom r = Seeds.forStream(7, "fit", 0);
        for (int i = 0; i < 3 * KEYS; i++) {
            assertEquals(i % KEYS, g.next(r));
        }
    }

    @Test
    void ycsbExponentialIsGeometricBackFromTheNewestKey() {
        double gamma = -Math.log(1 - ExponentialGenerator.DEFAULT_PERCENTILE / 100)
                / (KEYS * ExponentialGenerator.DEFAULT_FRACTION);
        double kept = 1 - Math.exp(-gamma * KEYS);
        assertFits(
                "exponential",
                chiSquare(
                        generator("exponential"),
                        k -> (Math.exp(-gamma * (KEYS - 1 - k)) - Math.exp(-gamma * (KEYS - k))) / kept));
    }

    @Test
    void zipfiansFollowGraysClosedForm() {
        // Ranks by the closed form YCSB's generator implements (exact Zipf for ranks 0 and 1).
        for (double theta : new double[] {0.5, 0.8, 0.99}) {
            double[] ranks = zipfRanks(KEYS, theta);
            String suffix = "(theta=" + theta + ")";
            assertFits(
                    "zipfian-unscrambled" + suffix,
                    chiSquare(generator("zipfian-unscrambled" + suffix), k -> ranks[(int) k]));
            if (theta != 0.99) {
                double[] keys = new double[KEYS];
                for (int rank = 0; rank < KEYS; rank++) {
                    keys[(int) Math.floorMod(Fnv.fnv64(rank), (long) KEYS)] += ranks[rank];
                }
                assertFits("zipfian" + suffix, chiSquare(generator("zipfian" + suffix), k -> keys[(int) k]));
            } else {
                // YCSB-exact: a rank of 10^10 + 1 items hashed modulo KEYS + 1, the extra key redrawn. The first
                // 2,000,000 ranks are placed exactly; the other 38 % of the mass evenly. Placing ranks up to
                // 200,000,000 exactly as well moves no key's share by more than 0.013 % of itself, far below
                // the 3 % that 1,000 draws per key can resolve.
                IntToDoubleFunction keys = ExpectedKeyShares.of("zipfian" + suffix, KEYS);
                assertFits(
                        "zipfian" + suffix, chiSquare(generator("zipfian" + suffix), k -> keys.applyAsDouble((int) k)));
            }
        }
        // latest: the newest key is rank 0 of a Zipfian over the keys above 0.
        double[] ages = zipfRanks(KEYS - 1, ZipfianGenerator.ZIPFIAN_CONSTANT);
        assertFits("latest", chiSquare(generator("latest"), k -> k == 0 ? 0 : ages[(int) (KEYS - 1 - k)]));
    }

    /** F restricted to [0, 1): (F(x) - F(0)) / (F(1) - F(0)), 0 below and 1 above. */
    static DoubleUnaryOperator truncatedToUnit(DoubleUnaryOperator f) {
        double lo = f.applyAsDouble(0);
        double width = f.applyAsDouble(1) - lo;
        return x -> x <= 0 ? 0 : x >= 1 ? 1 : (f.applyAsDouble(x) - lo) / width;
    }

    static DoubleUnaryOperator normal(double mean, double stddev) {
        return x -> phi((x - mean) / stddev);
    }

    /**
     * The standard normal CDF by its Taylor series, Phi(z) = 1/2 + phi(z) (z + z^3/3 + z^5/(3*5) + ...), which
     * converges for every z; beyond |z| = 9 it is 0 or 1 to within 1e-18.
     */
    static double phi(double z) {
        if (z < -9) {
            return 0;
        }
        if (z > 9) {
            return 1;
        }
        double term = z;
        double sum = z;
        for (int n = 1; n < 1000 && Math.abs(term) > 1e-17 * Math.abs(sum); n++) {
            term *= z * z / (2 * n + 1);
            sum += term;
        }
        return 0.5 + Math.exp(-z * z / 2) / Math.sqrt(2 * Math.PI) * sum;
    }

    /** P(Binomial(n, x) >= a): the regularized incomplete beta I_x(a, n + 1 - a) for integer parameters. */
    static double binomialTail(int n, int a, double x) {
        double p = 0;
        for (int j = a; j <= n; j++) {
            p += binomial(n, j) * Math.pow(x, j) * Math.pow(1 - x, n - j);
        }
        return p;
    }

    private static double logFactorial(int k) {
        double f = 0;
        for (int i = 2; i <= k; i++) {
            f += Math.log(i);
        }
        return f;
    }

    private static double binomial(int n, int k) {
        double c = 1;
        for (int i = 1; i <= k; i++) {
            c = c * (n - k + i) / i;
        }
        return c;
    }

    /** P(rank = k) for k in [0, n) of YCSB's Zipfian generator over n items. */
    static double[] zipfRanks(long n, double theta) {
        double zetan = Zeta.zeta(n, theta);
        double eta = (1 - Math.pow(2.0 / n, 1 - theta)) / (1 - Zeta.zeta(2, theta) / zetan);
        double second = (1 + Math.pow(0.5, theta)) / zetan;
        double[] p = new double[(int) n];
        double below = 0;
        for (int k = 0; k < n; k++) {
            double upTo;
            if (k == 0) {
                upTo = 1 / zetan;
            } else if (k == 1) {
                upTo = second;
            } else if (k == n - 1) {
                upTo = 1;
            } else {
                // rank <= k  <=>  n * (eta*u - eta + 1)^(1/(1-theta)) < k + 1
                upTo = Math.max(second, 1 - (1 - Math.pow((k + 1.0) / n, 1 - theta)) / eta);
            }
            p[k] = upTo - below;
            below = upTo;
        }
        return p;
    }

    private static LongGenerator generator(String expression) {
        return KeyDistributions.generator(KeyDistributions.parse(expression), KEYS, null, new ZetaCache());
    }

    /** The p-value of DRAWS keys from the generator against the expected share of each of KEYS keys. */
    static double chiSquare(LongGenerator g, DoubleUnaryOperator share) {
        SplittableRandom r = Seeds.forStream(11, "fit", 1);
        long[] observed = new long[KEYS];
        for (int i = 0; i < DRAWS; i++) {
            long k = g.next(r);
            assertTrue(k >= 0 && k < KEYS, "key " + k);
            observed[(int) k]++;
        }
        return chiSquare(observed, share);
    }

    /** Cells with a tiny expectation are pooled so the chi-square approximation holds. */
    static double chiSquare(long[] observed, DoubleUnaryOperator share) {
        double[] expected = new double[observed.length];
        long total = 0;
        for (long o : observed) {
            total += o;
        }
        int cells = 0;
        double pooledExpected = 0;
        long pooledObserved = 0;
        long[] obs = new long[observed.length + 1];
        for (int k = 0; k < observed.length; k++) {
            double e = share.applyAsDouble(k) * total;
            if (e < 5) {
                assertTrue(e > 0 || observed[k] == 0, "key " + k + " drawn " + observed[k] + " times, expected never");
                pooledExpected += e;
                pooledObserved += observed[k];
            } else {
                expected[cells] = e;
                obs[cells++] = observed[k];
            }
        }
        if (pooledExpected > 0) {
            expected[cells] = pooledExpected;
            obs[cells++] = pooledObserved;
        }
        double[] e = Arrays.copyOf(expected, cells);
        long[] o = Arrays.copyOf(obs, cells);
        return ChiSquareTest.withDefaults().test(e, o).getPValue();
    }

    static void assertFits(String what, double p) {
        assertTrue(p > ALPHA, what + ": p-value " + p);
    }
}
