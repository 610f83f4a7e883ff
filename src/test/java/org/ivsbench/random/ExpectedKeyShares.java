package org.ivsbench.random;

import java.util.function.DoubleUnaryOperator;
import java.util.function.IntToDoubleFunction;

import org.apache.commons.statistics.distribution.BetaDistribution;
import org.apache.commons.statistics.distribution.ContinuousDistribution;
import org.apache.commons.statistics.distribution.ExponentialDistribution;
import org.apache.commons.statistics.distribution.LogNormalDistribution;
import org.apache.commons.statistics.distribution.NormalDistribution;
import org.apache.commons.statistics.distribution.ParetoDistribution;
import org.apache.commons.statistics.distribution.PoissonDistribution;
import org.apache.commons.statistics.distribution.WeibullDistribution;

/**
 * The share of draws each key number 0 .. keys - 1 should get under a key-distribution expression, worked
 * out from the distribution's definition (Commons Statistics CDFs, the Zipfian closed form) rather than from
 * the generator under test, for tests that count where a real run's operations landed.
 */
public final class ExpectedKeyShares {
    /** Ranks of YCSB's 10^10-item Zipfian summed one by one; the rest is spread evenly by the hash. */
    private static final int EXACT_RANKS = 2_000_000;

    private ExpectedKeyShares() {}

    /** P(key = k) for k in [0, keys) under the expression, with no inserts (the newest key is keys - 1). */
    public static IntToDoubleFunction of(String expression, int keys) {
        DistributionSpec spec = KeyDistributions.parse(expression);
        double[] shares = new double[keys];
        switch (spec.name()) {
            case "uniform", "sequential" -> fill(shares, k -> 1.0 / keys);
            case "hotspot" -> {
                int hot = (int) (keys * spec.get("set"));
                double ops = spec.get("ops");
                fill(shares, k -> k < hot ? ops / hot : (1 - ops) / (keys - hot));
            }
            case "zipfian-unscrambled" -> shares = KeyDistributionsFitTest.zipfRanks(keys, spec.get("theta"));
            case "zipfian" ->
                shares = KeyDistributions.isYcsb(spec)
                        ? ycsbScrambledZipfian(keys)
                        : scattered(KeyDistributionsFitTest.zipfRanks(keys, spec.get("theta")), keys);
            case "latest" -> {
                // The newest key is rank 0 of a Zipfian over the keys above 0 (SkewedLatestGenerator).
                double[] ages = KeyDistributionsFitTest.zipfRanks(keys - 1, ZipfianGenerator.ZIPFIAN_CONSTANT);
                fill(shares, k -> k == 0 ? 0 : ages[keys - 1 - k]);
            }
            case "exponential" -> {
                if (KeyDistributions.isYcsb(spec)) {
                    double gamma = -Math.log(1 - ExponentialGenerator.DEFAULT_PERCENTILE / 100)
                            / (keys * ExponentialGenerator.DEFAULT_FRACTION);
                    double kept = 1 - Math.exp(-gamma * keys);
                    fill(shares, k -> (Math.exp(-gamma * (keys - 1 - k)) - Math.exp(-gamma * (keys - k))) / kept);
                } else {
                    // An offset back from the newest key, as a fraction of the key space, truncated to [0, 1).
                    DoubleUnaryOperator cdf = truncated(ExponentialDistribution.of(spec.get("mean")));
                    fill(
                            shares,
                            k -> cdf.applyAsDouble((keys - k) / (double) keys)
                                    - cdf.applyAsDouble((keys - 1.0 - k) / keys));
                }
            }
            case "poisson" -> {
                PoissonDistribution p = PoissonDistribution.of(spec.get("mean"));
                double kept = p.cumulativeProbability(keys - 1);
                fill(shares, k -> p.probability(k) / kept);
            }
            default -> {
                // Continuous shapes over [0, 1) in key order: key k holds [k/keys, (k+1)/keys).
                DoubleUnaryOperator cdf = truncated(continuous(spec));
                fill(shares, k -> cdf.applyAsDouble((k + 1.0) / keys) - cdf.applyAsDouble((double) k / keys));
            }
        }
        double[] result = shares;
        return k -> result[k];
    }

    private static ContinuousDistribution continuous(DistributionSpec spec) {
        return switch (spec.name()) {
            case "normal" -> NormalDistribution.of(spec.get("mean"), spec.get("stddev"));
            case "beta" -> BetaDistribution.of(spec.get("alpha"), spec.get("beta"));
            case "lognormal" -> LogNormalDistribution.of(spec.get("mu"), spec.get("sigma"));
            case "pareto" -> ParetoDistribution.of(spec.get("scale"), spec.get("shape"));
            case "weibull" -> WeibullDistribution.of(spec.get("shape"), spec.get("scale"));
            default -> throw new IllegalArgumentException("no continuous shape for " + spec.name());
        };
    }

    /** The CDF of d conditioned on [0, 1). */
    private static DoubleUnaryOperator truncated(ContinuousDistribution d) {
        double lo = d.cumulativeProbability(0);
        double mass = d.cumulativeProbability(1) - lo;
        return x -> (d.cumulativeProbability(x) - lo) / mass;
    }

    /** Rank shares scattered over the keys by FNV-64, as the scrambled Zipfian does with its own ranks. */
    private static double[] scattered(double[] ranks, int keys) {
        double[] shares = new double[keys];
        for (int rank = 0; rank < ranks.length; rank++) {
            shares[(int) Math.floorMod(Fnv.fnv64(rank), (long) keys)] += ranks[rank];
        }
        return shares;
    }

    /**
     * YCSB's zipfian as CoreWorkload draws it without inserts: a rank of the 10^10 + 1 item Zipfian (theta
     * 0.99, YCSB's constant zeta), FNV-64 modulo keys + 1, and the one key too many redrawn. The first
     * EXACT_RANKS ranks are placed exactly; the remaining mass (ranks hashed far apart) evenly.
     */
    private static double[] ycsbScrambledZipfian(int keys) {
        long items = ScrambledZipfianGenerator.ITEM_COUNT + 1;
        double theta = ZipfianGenerator.ZIPFIAN_CONSTANT;
        double zetan = ScrambledZipfianGenerator.ZETAN;
        double eta = (1 - Math.pow(2.0 / items, 1 - theta)) / (1 - Zeta.zeta(2, theta) / zetan);
        double second = (1 + Math.pow(0.5, theta)) / zetan;
        double[] withExtra = new double[keys + 1];
        double below = 0;
        for (int rank = 0; rank < EXACT_RANKS; rank++) {
            double upTo = rank == 0
                    ? 1 / zetan
                    : rank == 1 ? second : Math.max(second, 1 - (1 - Math.pow((rank + 1.0) / items, 1 - theta)) / eta);
            withExtra[(int) Math.floorMod(Fnv.fnv64(rank), (long) (keys + 1))] += upTo - below;
            below = upTo;
        }
        double tail = (1 - below) / (keys + 1);
        double kept = 0;
        for (int k = 0; k < keys; k++) {
            withExtra[k] += tail;
            kept += withExtra[k];
        }
        double[] shares = new double[keys];
        for (int k = 0; k < keys; k++) {
            shares[k] = withExtra[k] / kept;
        }
        return shares;
    }

    private static void fill(double[] shares, IntToDoubleFunction share) {
        for (int k = 0; k < shares.length; k++) {
            shares[k] = share.applyAsDouble(k);
        }
    }
}
