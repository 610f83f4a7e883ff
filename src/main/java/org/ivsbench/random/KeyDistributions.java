package org.ivsbench.random;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.ivsbench.random.DistributionSpec.Parameter;

/**
 * Key choosers by expression ({@link DistributionSpec}): YCSB's names, optionally with parameters, and
 * textbook shapes over the key space.
 *
 * <p>A plain YCSB name, or one whose parameters equal YCSB's, is exactly {@link Distributions#forName}. The
 * continuous shapes (normal, beta, lognormal, pareto, weibull) are drawn over [0, 1) and mapped onto key
 * numbers 0 .. recordCount - 1 in key order ({@code floor(x * recordCount)}), so with {@code keyorder=ordered}
 * {@code normal(mean=0.5, stddev=0.05)} hits the middle of the table. Mass outside [0, 1) is redrawn (the
 * distribution is truncated to [0, 1)). {@code poisson(mean=m)} draws key numbers directly, truncated to the
 * loaded keys. {@code exponential(mean=m)} is an offset back from the newest key, m a fraction of the key
 * space, as plain {@code exponential} is YCSB's offset back from the newest key.
 */
public final class KeyDistributions {
    private static final double INF = Double.POSITIVE_INFINITY;
    private static final Map<String, List<Parameter>> CATALOG = catalog();

    private KeyDistributions() {}

    private static Map<String, List<Parameter>> catalog() {
        Map<String, List<Parameter>> c = new LinkedHashMap<>();
        Parameter theta = Parameter.withDefault("theta", ZipfianGenerator.ZIPFIAN_CONSTANT, 0, true, 1, true);
        c.put("uniform", List.of());
        c.put("zipfian", List.of(theta));
        c.put("zipfian-unscrambled", List.of(theta));
        c.put("latest", List.of());
        c.put(
                "hotspot",
                List.of(
                        Parameter.withDefault("set", HotspotGenerator.DEFAULT_HOT_SET_FRACTION, 0, false, 1, false),
                        Parameter.withDefault("ops", HotspotGenerator.DEFAULT_HOT_OPN_FRACTION, 0, false, 1, false)));
        c.put("sequential", List.of());
        c.put("exponential", List.of(Parameter.optional("mean", 0, true, INF, false)));
        c.put(
                "normal",
                List.of(
                        Parameter.withDefault("mean", 0.5, -INF, false, INF, false),
                        Parameter.withDefault("stddev", 0.1, 0, true, INF, false)));
        c.put(
                "beta",
                List.of(
                        Parameter.withDefault("alpha", 2, 0, true, INF, false),
                        Parameter.withDefault("beta", 5, 0, true, INF, false)));
        for (String name : List.of("lognormal", "pareto", "weibull", "poisson")) {
            c.put(name, Shapes.REQUIRED.get(name));
        }
        return c;
    }

    /** The valid names, in documentation order. */
    public static List<String> names() {
        return List.copyOf(CATALOG.keySet());
    }

    /**
     * Parses and validates an expression: the name, each parameter's name and range, required parameters,
     * and that the shape puts probability on [0, 1).
     *
     * @throws IllegalArgumentException with a message that says what is wrong (without the expression itself)
     */
    public static DistributionSpec parse(String text) {
        DistributionSpec spec = DistributionSpec.parse(text);
        List<Parameter> allowed = CATALOG.get(spec.name());
        if (allowed == null) {
            throw new IllegalArgumentException(
                    "unknown distribution '" + spec.name() + "'; valid: " + String.join(", ", CATALOG.keySet()));
        }
        DistributionSpec resolved = spec.resolve(allowed);
        if (!isYcsb(resolved) && Shapes.continuous(resolved) != null) {
            unitInterval(resolved); // fails now, at config time, rather than when a terminal starts
        }
        return resolved;
    }

    /** As {@link #generator(DistributionSpec, long, long, CounterGenerator, ZetaCache)} with no new keys expected. */
    public static LongGenerator generator(
            DistributionSpec spec, long recordCount, CounterGenerator insertCounter, ZetaCache zetaCache) {
        return generator(spec, recordCount, 0, insertCounter, zetaCache);
    }

    /**
     * The chooser of a resolved spec; see {@link Distributions#forName(String, long, long, CounterGenerator,
     * ZetaCache)} for the other arguments (expectedNewKeys sizes YCSB's zipfian only).
     */
    public static LongGenerator generator(
            DistributionSpec spec,
            long recordCount,
            long expectedNewKeys,
            CounterGenerator insertCounter,
            ZetaCache zetaCache) {
        if (isYcsb(spec)) {
            return Distributions.forName(spec.name(), recordCount, expectedNewKeys, insertCounter, zetaCache);
        }
        long last = recordCount - 1;
        switch (spec.name()) {
            case "zipfian": {
                // YCSB's 10^10-item universe has a known zeta only at 0.99; other thetas rank the loaded keys.
                ZipfianGenerator ranks = new ZipfianGenerator(0, last, spec.get("theta"), zetaCache);
                return r -> Math.floorMod(Fnv.fnv64(ranks.next(r)), recordCount);
            }
            case "zipfian-unscrambled":
                return new ZipfianGenerator(0, last, spec.get("theta"), zetaCache);
            case "hotspot":
                return new HotspotGenerator(0, last, spec.get("set"), spec.get("ops"));
            case "exponential": {
                Shapes.Truncated offsets = unitInterval(spec);
                CounterGenerator counter = insertCounter != null ? insertCounter : new CounterGenerator(recordCount);
                return r -> {
                    long latest = counter.lastValue();
                    return latest - Math.min(latest, (long) (offsets.at(r.nextDouble()) * (latest + 1)));
                };
            }
            case "poisson": {
                Shapes.TruncatedDiscrete keys =
                        new Shapes.TruncatedDiscrete(Shapes.discrete(spec), 0, last, "the loaded keys 0.." + last);
                return r -> keys.at(r.nextDouble());
            }
            default: {
                Shapes.Truncated unit = unitInterval(spec);
                return r -> Math.min(last, (long) (unit.at(r.nextDouble()) * recordCount));
            }
        }
    }

    /** A continuous spec's distribution over [0, 1), for the generators and the tests. */
    static Shapes.Truncated unitInterval(DistributionSpec spec) {
        return new Shapes.Truncated(Shapes.continuous(spec), 0, 1, "[0, 1) (the key space)");
    }

    /** True when the spec means exactly what YCSB means by its name. */
    static boolean isYcsb(DistributionSpec spec) {
        return switch (spec.name()) {
            case "uniform", "latest", "sequential" -> true;
            case "zipfian", "zipfian-unscrambled" -> spec.get("theta") == ZipfianGenerator.ZIPFIAN_CONSTANT;
            case "hotspot" ->
                spec.get("set") == HotspotGenerator.DEFAULT_HOT_SET_FRACTION
                        && spec.get("ops") == HotspotGenerator.DEFAULT_HOT_OPN_FRACTION;
            case "exponential" -> Double.isNaN(spec.getOrNaN("mean"));
            default -> false;
        };
    }
}
