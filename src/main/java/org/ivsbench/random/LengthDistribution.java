package org.ivsbench.random;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import org.ivsbench.random.DistributionSpec.Parameter;

/**
 * Value lengths in bytes by expression: {@code constant} (the configured length, drawing nothing, as before
 * length distributions existed), {@code uniform(min=10, max=1000)}, {@code zipfian(theta=..)} (short lengths
 * most popular, as YCSB's zipfian field lengths), or a textbook shape whose parameters are in bytes
 * ({@code normal(mean=100, stddev=20)}, exponential, lognormal, pareto, weibull, poisson) or, for beta,
 * spread over [min, max]. Every expression takes min and max (bytes, inclusive): draws are rounded to whole
 * bytes and those outside [min, max] are redrawn (the distribution is truncated). Immutable and
 * thread-safe.
 */
public final class LengthDistribution {
    private static final double INF = Double.POSITIVE_INFINITY;
    private static final int MEAN_POINTS = 100_000;

    private final DistributionSpec spec;
    private final int min;
    private final int max;
    private final LengthDraw draw;
    /** Estimated on first use: parsing happens per terminal, the mean is wanted by baselines only. */
    private volatile double mean;

    @FunctionalInterface
    private interface LengthDraw {
        int next(SplittableRandom r);
    }

    private LengthDistribution(DistributionSpec spec, int min, int max, LengthDraw draw, double mean) {
        // mean is NaN until estimated; every estimate is the same number, so racing threads agree.
        this.spec = spec;
        this.min = min;
        this.max = max;
        this.draw = draw;
        this.mean = mean;
    }

    /** The valid names, in documentation order. */
    public static List<String> names() {
        return List.copyOf(catalog(1).keySet());
    }

    /**
     * @param text          the expression
     * @param constant      the length {@code constant} means (the element's plain length setting)
     * @param lowest        the smallest length allowed (0, or 1 for extends)
     * @param defaultMax    max when the expression does not give one
     * @param highest       the largest length allowed
     * @throws IllegalArgumentException saying what is wrong with the expression
     */
    public static LengthDistribution parse(String text, int constant, int lowest, int defaultMax, int highest) {
        DistributionSpec raw = DistributionSpec.parse(text);
        Map<String, List<Parameter>> catalog = catalog(lowest);
        List<Parameter> allowed = catalog.get(raw.name());
        if (allowed == null) {
            throw new IllegalArgumentException(
                    "unknown length distribution '" + raw.name() + "'; valid: " + String.join(", ", catalog.keySet()));
        }
        DistributionSpec spec = raw.resolve(allowed);
        if (spec.name().equals("constant")) {
            return new LengthDistribution(spec, constant, constant, r -> constant, constant);
        }
        int min = (int) spec.get("min");
        double maxParam = spec.getOrNaN("max");
        int max = Double.isNaN(maxParam) ? defaultMax : (int) Math.min(Integer.MAX_VALUE, maxParam);
        if (max > highest) {
            throw new IllegalArgumentException("max=" + max + " must be <= " + highest);
        }
        if (max < min) {
            throw new IllegalArgumentException("max=" + max + " must be >= min=" + min);
        }
        String what = "lengths [" + min + ", " + max + "]";
        LengthDraw draw =
                switch (spec.name()) {
                    case "uniform" -> r -> min + (int) r.nextLong(max - min + 1L);
                    case "zipfian" -> {
                        ZipfianGenerator ranks = new ZipfianGenerator(min, max, spec.get("theta"));
                        yield r -> (int) ranks.next(r);
                    }
                    case "poisson" -> {
                        Shapes.TruncatedDiscrete counts =
                                new Shapes.TruncatedDiscrete(Shapes.discrete(spec), min, max, what);
                        yield r -> (int) counts.at(r.nextDouble());
                    }
                    case "beta" -> {
                        Shapes.Truncated unit = new Shapes.Truncated(Shapes.continuous(spec), 0, 1, what);
                        long width = max - min + 1L;
                        yield r -> min + (int) Math.min(width - 1, (long) (unit.at(r.nextDouble()) * width));
                    }
                    default -> {
                        // Whole bytes by rounding: truncating to [min - 0.5, max + 0.5) keeps exactly [min, max].
                        Shapes.Truncated bytes =
                                new Shapes.Truncated(Shapes.continuous(spec), min - 0.5, max + 0.5, what);
                        yield r -> (int) Math.min(max, Math.max(min, Math.round(bytes.at(r.nextDouble()))));
                    }
                };
        return new LengthDistribution(spec, min, max, draw, Double.NaN);
    }

    private static Map<String, List<Parameter>> catalog(int lowest) {
        Parameter min = Parameter.withDefault("min", lowest, lowest, false, Integer.MAX_VALUE, false);
        Parameter max = Parameter.optional("max", lowest, false, INF, false);
        Map<String, List<Parameter>> c = new LinkedHashMap<>();
        c.put("constant", List.of());
        c.put("uniform", List.of(min, max));
        c.put(
                "zipfian",
                List.of(Parameter.withDefault("theta", ZipfianGenerator.ZIPFIAN_CONSTANT, 0, true, 1, true), min, max));
        c.put(
                "normal",
                List.of(
                        Parameter.required("mean", -INF, false, INF, false),
                        Parameter.required("stddev", 0, true, INF, false),
                        min,
                        max));
        c.put(
                "beta",
                List.of(
                        Parameter.withDefault("alpha", 2, 0, true, INF, false),
                        Parameter.withDefault("beta", 5, 0, true, INF, false),
                        min,
                        max));
        c.put("exponential", List.of(Parameter.required("mean", 0, true, INF, false), min, max));
        for (String name : List.of("lognormal", "pareto", "weibull", "poisson")) {
            List<Parameter> p = new ArrayList<>(Shapes.REQUIRED.get(name));
            p.add(min);
            p.add(max);
            c.put(name, List.copyOf(p));
        }
        return c;
    }

    /**
     * The expected length, estimated from draws of a fixed private stream (so the same in every run): exact for
     * constant, close to a byte otherwise; used where one representative size is needed (baselines).
     */
    private static double meanOf(LengthDraw draw) {
        SplittableRandom r = new SplittableRandom(0x6c656e67L);
        double sum = 0;
        for (int i = 0; i < MEAN_POINTS; i++) {
            sum += draw.next(r);
        }
        return sum / MEAN_POINTS;
    }

    /** A length; draws nothing from the stream when constant, so constant runs keep their streams. */
    public int next(SplittableRandom r) {
        return draw.next(r);
    }

    public boolean constant() {
        return spec.name().equals("constant");
    }

    public int min() {
        return min;
    }

    public int max() {
        return max;
    }

    /** The expected length in bytes (estimated for non-constant shapes). */
    public double mean() {
        double m = mean;
        if (Double.isNaN(m)) {
            m = meanOf(draw);
            mean = m;
        }
        return m;
    }

    public DistributionSpec spec() {
        return spec;
    }

    @Override
    public String toString() {
        return spec.text();
    }
}
