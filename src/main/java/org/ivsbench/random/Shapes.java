package org.ivsbench.random;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.apache.commons.statistics.distribution.BetaDistribution;
import org.apache.commons.statistics.distribution.ContinuousDistribution;
import org.apache.commons.statistics.distribution.DiscreteDistribution;
import org.apache.commons.statistics.distribution.ExponentialDistribution;
import org.apache.commons.statistics.distribution.LogNormalDistribution;
import org.apache.commons.statistics.distribution.NormalDistribution;
import org.apache.commons.statistics.distribution.ParetoDistribution;
import org.apache.commons.statistics.distribution.PoissonDistribution;
import org.apache.commons.statistics.distribution.WeibullDistribution;

import org.ivsbench.random.DistributionSpec.Parameter;

/**
 * The textbook distributions both key and length expressions name, built from Apache Commons Statistics by
 * their parameters. Their draws come from an inverse CDF applied to a uniform of the caller's seeded stream,
 * restricted to an interval ({@link Truncated}): a draw outside it is in effect redrawn, without a loop, so
 * every draw costs one uniform and one inverse CDF.
 */
final class Shapes {
    private static final double INF = Double.POSITIVE_INFINITY;

    /** Parameters of each continuous shape; the key and length catalogs add their own defaults. */
    static final Map<String, List<Parameter>> REQUIRED = Map.of(
            "lognormal",
                    List.of(
                            Parameter.required("mu", -INF, false, INF, false),
                            Parameter.required("sigma", 0, true, INF, false)),
            "pareto",
                    List.of(
                            Parameter.required("scale", 0, true, INF, false),
                            Parameter.required("shape", 0, true, INF, false)),
            "weibull",
                    List.of(
                            Parameter.required("shape", 0, true, INF, false),
                            Parameter.required("scale", 0, true, INF, false)),
            "poisson", List.of(Parameter.required("mean", 0, true, 1e9, false)));

    private Shapes() {}

    /** The continuous distribution a resolved spec names, or null when it is not one of these shapes. */
    static ContinuousDistribution continuous(DistributionSpec s) {
        return switch (s.name()) {
            case "normal" -> NormalDistribution.of(s.get("mean"), s.get("stddev"));
            case "beta" -> BetaDistribution.of(s.get("alpha"), s.get("beta"));
            case "exponential" -> ExponentialDistribution.of(s.get("mean"));
            case "lognormal" -> LogNormalDistribution.of(s.get("mu"), s.get("sigma"));
            case "pareto" -> ParetoDistribution.of(s.get("scale"), s.get("shape"));
            case "weibull" -> WeibullDistribution.of(s.get("shape"), s.get("scale"));
            default -> null;
        };
    }

    static DiscreteDistribution discrete(DistributionSpec s) {
        return s.name().equals("poisson") ? PoissonDistribution.of(s.get("mean")) : null;
    }

    /** A continuous distribution restricted to [lo, hi). */
    static final class Truncated {
        private final ContinuousDistribution d;
        private final double pLo;
        private final double pWidth;
        private final double lo;
        private final double hi;

        /** @throws IllegalArgumentException when the distribution puts (almost) nothing on [lo, hi) */
        Truncated(ContinuousDistribution d, double lo, double hi, String what) {
            this.d = d;
            this.lo = lo;
            this.hi = hi;
            this.pLo = d.cumulativeProbability(lo);
            this.pWidth = d.cumulativeProbability(hi) - pLo;
            if (!(pWidth > 1e-9)) {
                throw new IllegalArgumentException("puts no probability on " + what);
            }
        }

        /** A draw in [lo, hi) for a uniform u in [0, 1). */
        double at(double u) {
            double x = d.inverseCumulativeProbability(pLo + u * pWidth);
            // Rounding at the edges of the CDF can step just outside; such draws belong to the edge.
            return x < lo ? lo : x >= hi ? Math.nextDown(hi) : x;
        }

        /** The CDF of the truncated distribution, for tests. */
        double cdf(double x) {
            if (x <= lo) {
                return 0;
            }
            if (x >= hi) {
                return 1;
            }
            return (d.cumulativeProbability(x) - pLo) / pWidth;
        }
    }

    /**
     * A discrete distribution restricted to [first, last]. Up to {@value #TABLE_LIMIT} values the CDF is
     * tabulated once and a draw is a binary search for the smallest k with F(k) >= p, which is what the
     * inverse CDF returns but without its search over the whole support on every draw.
     */
    static final class TruncatedDiscrete {
        static final int TABLE_LIMIT = 1 << 20;

        private final DiscreteDistribution d;
        private final double pLo;
        private final double pWidth;
        private final long first;
        private final long last;
        private final double[] cdf;

        TruncatedDiscrete(DiscreteDistribution d, long first, long last, String what) {
            this.d = d;
            this.first = first;
            this.last = last;
            this.pLo = first <= 0 ? 0 : d.cumulativeProbability((int) Math.min(Integer.MAX_VALUE, first - 1));
            this.pWidth = d.cumulativeProbability((int) Math.min(Integer.MAX_VALUE, last)) - pLo;
            if (!(pWidth > 1e-9)) {
                throw new IllegalArgumentException("puts no probability on " + what);
            }
            if (last - first < TABLE_LIMIT) {
                cdf = new double[(int) (last - first + 1)];
                for (int i = 0; i < cdf.length; i++) {
                    cdf[i] = d.cumulativeProbability((int) (first + i));
                }
            } else {
                cdf = null;
            }
        }

        long at(double u) {
            double p = pLo + u * pWidth;
            if (cdf != null) {
                int i = Arrays.binarySearch(cdf, p);
                // Not found: -(insertion point) - 1, the insertion point being the first entry above p.
                return first + Math.min(cdf.length - 1, i >= 0 ? firstEqual(i, p) : -i - 1);
            }
            // The inverse CDF of p is the smallest k whose CDF reaches it: first .. last.
            return Math.max(first, Math.min(last, d.inverseCumulativeProbability(p)));
        }

        /** Equal CDF values (zero-probability steps): the smallest k, as the inverse CDF gives. */
        private int firstEqual(int i, double p) {
            while (i > 0 && cdf[i - 1] == p) {
                i--;
            }
            return i;
        }

        /** P(draw = k) of the truncated distribution, for tests. */
        double pmf(long k) {
            return k < first || k > last ? 0 : d.probability((int) k) / pWidth;
        }
    }
}
