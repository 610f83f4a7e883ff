package org.ivsbench.random;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.DoubleUnaryOperator;
import java.util.function.IntToDoubleFunction;

import org.apache.commons.statistics.distribution.NormalDistribution;
import org.apache.commons.statistics.inference.ChiSquareTest;
import org.apache.commons.statistics.inference.KolmogorovSmirnovTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Goodness of fit of every key distribution on 100,000 seeded draws: Kolmogorov-Smirnov of the continuous
 * draws against the analytic CDF (truncated to [0, 1)), chi-square of the keys they become against the
 * expected share of each key. The streams are fixed, so each p-value is a fixed number; the threshold 0.001
 * only says how far from the distribution a correct sampler could plausibly land.
 */
class KeyDistributionsFitTest {
    static final int DRAWS = 100_000;
    static final double ALPHA = 0.001;
    private static final int KEYS = 100;

    @ParameterizedTest
    @ValueSource(
            strings = {
                "normal",
                "normal(mean=0.5, stddev=0.05)",
                "beta",
                "beta(alpha=0.5, beta=0.5)",
                "exponential(mean=0.1)",
                "lognormal(mu=-1.5, sigma=0.6)",
                "pareto(scale=0.05, shape=1.5)",
                "weibull(shape=1.5, scale=0.3)",
                "normal(mean=0.95, stddev=0.2)"
            })
    void continuousDrawsFollowTheTruncatedCdf(String expression) {
        DistributionSpec spec = KeyDistributions.parse(expression);
        Shapes.Truncated unit = KeyDistributions.unitInterval(spec);
        SplittableRandom r = Seeds.forStream(7, "fit", 0);
        double[] draws = new double[DRAWS];
        for (int i = 0; i < DRAWS; i++) {
            draws[i] = unit.at(r.nextDouble());
            assertTrue(draws[i] >= 0 && draws[i] < 1, expression + " drew " + draws[i]);
        }
        assertFits(
                expression,
                KolmogorovSmirnovTest.withDefaults().test(draws, unit::cdf).getPValue());
        if (!spec.name().equals("exponential")) {
            // Keys in key order: key k holds [k/n, (k+1)/n). (exponential counts back from the newest key.)
            assertFits(
                    expression + " keys",
                    chiSquare(
                            KeyDistributions.generator(spec, KEYS, null, new ZetaCache()),
                            k -> unit.cdf((k + 1.0) / KEYS) - unit.cdf((double) k / KEYS)));
        } else {
            assertFits(
                    expression + " keys",
                    chiSquare(
                            KeyDistributions.generator(spec, KEYS, null, new ZetaCache()),
                            k -> unit.cdf((KEYS - k) / (double) KEYS) - unit.cdf((KEYS - 1.0 - k) / KEYS)));
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
        NormalDistribution shifted = NormalDistribution.of(0.51, 0.1);
        double p = KolmogorovSmirnovTest.withDefaults()
                .test(draws, shifted::cumulativeProbability)
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
        Shapes.TruncatedDiscrete poisson = new Shapes.TruncatedDiscrete(
                Shapes.discrete(KeyDistributions.parse("poisson(mean=40)")), 0, KEYS - 1, "test");
        assertFits("poisson", chiSquare(generator("poisson(mean=40)"), k -> poisson.pmf((long) k)));
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
