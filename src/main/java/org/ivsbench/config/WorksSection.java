package org.ivsbench.config;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** {@code works/work}: the phases, in order. Optional (empty) when the config has an experiment. */
final class WorksSection {
    private static final List<String> ELEMENTS = List.of(
            "name",
            "time",
            "count",
            "warmup",
            "rate",
            "arrival",
            "weights",
            "active_terminals",
            "serial",
            "thinkTime",
            "maxlateness",
            "ramp");
    /** Weights are percentages typed by hand; allow for "33.33,33.33,33.34"-style rounding, nothing more. */
    private static final double WEIGHT_SUM_TOLERANCE = 0.01;

    private static final long MAX_LATENESS_LIMIT_MS = 3_600_000L;

    private WorksSection() {}

    static List<PhaseConfig> parse(
            Element root,
            int terminals,
            List<TransactionTypeConfig> types,
            Set<String> phaseParameterNames,
            boolean optional)
            throws ConfigException {
        Element works = root.single("works");
        if (works == null && optional) {
            return List.of();
        }
        if (works == null) {
            throw new ConfigException("works", "is required: give at least one work (phase)");
        }
        works.requireSection(List.of("work"));
        List<Element> elements = works.repeated("work");
        if (elements.isEmpty()) {
            throw new ConfigException("works", "has no work; give at least one work (phase)");
        }
        List<String> known = new ArrayList<>(ELEMENTS);
        for (String parameter : new TreeSet<>(phaseParameterNames)) {
            if (known.contains(parameter)) {
                throw new IllegalArgumentException(
                        "phase parameter '" + parameter + "' clashes with a generic element");
            }
            known.add(parameter);
        }
        List<PhaseConfig> phases = new ArrayList<>();
        Map<String, String> names = new HashMap<>();
        for (int i = 0; i < elements.size(); i++) {
            Element work = elements.get(i);
            work.requireSection(known);
            PhaseConfig phase = phase(work, i, terminals, types, phaseParameterNames);
            String earlier = names.putIfAbsent(phase.name(), work.path());
            if (earlier != null) {
                throw new ConfigException(
                        work.childPath("name"),
                        "'" + phase.name() + "' is already the name of " + earlier
                                + "; phase names must be unique (results are keyed by them)");
            }
            phases.add(phase);
        }
        return phases;
    }

    private static PhaseConfig phase(
            Element work, int index, int terminals, List<TransactionTypeConfig> types, Set<String> phaseParameterNames)
            throws ConfigException {
        // Default names use the 0-based index, as summary.json does (docs/results-format.md).
        String name = work.leaf("name");
        if (name == null) {
            name = "phase" + index;
        } else if (name.isBlank()) {
            throw new ConfigException(work.childPath("name"), "is empty (leave it out for 'phase" + index + "')");
        }
        String timeText = work.leaf("time");
        String countText = work.leaf("count");
        if (timeText != null && countText != null) {
            throw new ConfigException(
                    work.path(),
                    "has both time ('" + timeText + "') and count ('" + countText + "'); a phase ends by one of them");
        }
        if (timeText == null && countText == null) {
            throw new ConfigException(work.path(), "needs time (seconds) or count (operations) to know when to end");
        }
        long time = timeText == null ? 0 : work.longAtLeast("time", 0, 1);
        long count = countText == null ? 0 : work.longAtLeast("count", 0, 1);
        long warmup = work.longAtLeast("warmup", 0, 0);
        RateSpec rate = rate(work);
        if (rate.kind() == RateSpec.Kind.DISABLED && count > 0) {
            throw new ConfigException(
                    work.childPath("rate"),
                    "'" + work.leaf("rate") + "' idles the terminals, so count '" + countText
                            + "' would never be reached; end this phase by time");
        }
        ArrivalKind arrival = arrival(work, rate);
        List<Double> weights = weights(work, types);
        int active = work.intAtLeast("active_terminals", terminals, 1);
        if (active > terminals) {
            throw new ConfigException(
                    work.childPath("active_terminals"), "'" + active + "' exceeds terminals (" + terminals + ")");
        }
        boolean serial = work.bool("serial", false);
        String thinkText = work.leaf("thinkTime");
        // A whole number is the constant think time (ms) as always; anything else is a distribution expression,
        // checked where the distributions are known (ThinkTimes, before the run).
        boolean constantThink = thinkText == null || thinkText.strip().matches("[+-]?\\d+");
        long thinkTime = constantThink ? work.longAtLeast("thinkTime", 0, 0) : 0;
        String thinkDistribution = constantThink ? null : thinkText.strip();
        long maxLateness = maxLateness(work, rate);
        Map<String, String> parameters = new LinkedHashMap<>();
        for (String parameter : phaseParameterNames) {
            Element element = work.single(parameter);
            if (element == null) {
                continue;
            }
            if (!element.hasChildren()) {
                parameters.put(parameter, element.text());
                continue;
            }
            // A benchmark's phase element may group leaves (e.g. one per transaction type): "parameter/child".
            element.requireContainer();
            for (Element child : element.children()) {
                if (parameters.put(parameter + "/" + child.name(), child.text()) != null) {
                    throw new ConfigException(child.path(), "given more than once; give it once");
                }
            }
        }
        RampConfig ramp = RampSection.parse(work, count, time, rate, serial, types, phaseParameterNames);
        return PhaseConfig.builder(index)
                .name(name)
                .timeSeconds(time)
                .count(count)
                .warmupSeconds(warmup)
                .rate(rate)
                .arrival(arrival)
                .weights(weights)
                .activeTerminals(active)
                .serial(serial)
                .thinkTimeMs(thinkTime)
                .maxLatenessMs(maxLateness)
                .parameters(parameters)
                .ramp(ramp)
                .thinkTimeDistribution(thinkDistribution)
                .build();
    }

    private static RateSpec rate(Element work) throws ConfigException {
        String text = work.leaf("rate");
        if (text == null) {
            return RateSpec.unlimited();
        }
        String path = work.childPath("rate");
        switch (text.toLowerCase(Locale.ROOT)) {
            case "unlimited":
                return RateSpec.unlimited();
            case "disabled":
                return RateSpec.disabled();
            default:
                break;
        }
        double value = Leaves.parseFinite(path, text, "a number, 'unlimited' or 'disabled'");
        if (value <= 0) {
            throw new ConfigException(
                    path,
                    "'" + text + "' must be positive (operations per second across all"
                            + " terminals); use 'disabled' to idle the terminals");
        }
        return RateSpec.open(value);
    }

    private static long maxLateness(Element work, RateSpec rate) throws ConfigException {
        String text = work.leaf("maxlateness");
        if (text == null) {
            return PhaseConfig.DEFAULT_MAX_LATENESS_MS;
        }
        String path = work.childPath("maxlateness");
        if (!rate.isOpen()) {
            throw new ConfigException(
                    path,
                    "'" + text + "' bounds how late an arrival may start, but rate is "
                            + rate.kind().name().toLowerCase(Locale.ROOT)
                            + " (no arrivals); give a numeric rate or drop it");
        }
        long value = work.longAtLeast("maxlateness", 0, 1);
        if (value > MAX_LATENESS_LIMIT_MS) {
            throw new ConfigException(
                    path, "'" + text + "' must be at most " + MAX_LATENESS_LIMIT_MS + " (milliseconds, one hour)");
        }
        return value;
    }

    private static ArrivalKind arrival(Element work, RateSpec rate) throws ConfigException {
        String text = work.leaf("arrival");
        if (text == null) {
            return ArrivalKind.REGULAR;
        }
        ArrivalKind kind;
        try {
            kind = ArrivalKind.valueOf(text.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(
                    work.childPath("arrival"), "'" + text + "' is not an arrival process (regular or poisson)");
        }
        // Arrivals only exist in an open loop; accepting poisson here would suggest a model that is not run.
        if (kind == ArrivalKind.POISSON && !rate.isOpen()) {
            throw new ConfigException(
                    work.childPath("arrival"),
                    "'" + text + "' needs a numeric rate, but rate is "
                            + rate.kind().name().toLowerCase(Locale.ROOT));
        }
        return kind;
    }

    static List<Double> weights(Element work, List<TransactionTypeConfig> types) throws ConfigException {
        String text = work.leaf("weights");
        String path = work.childPath("weights");
        List<String> typeNames = types.stream().map(TransactionTypeConfig::name).toList();
        if (text == null) {
            if (types.size() == 1) {
                return List.of(100.0);
            }
            throw new ConfigException(
                    path,
                    "is required: one weight per transaction type (" + String.join(", ", typeNames)
                            + "), summing to 100");
        }
        String[] items = text.split(",", -1);
        List<Double> weights = new ArrayList<>();
        BigDecimal sum = BigDecimal.ZERO;
        for (int i = 0; i < items.length; i++) {
            String item = items[i].strip();
            double weight = Leaves.isDecimal(item) ? Double.parseDouble(item) : Double.NaN;
            if (!Double.isFinite(weight)) {
                throw new ConfigException(
                        path,
                        "'" + text + "': weight " + (i + 1) + " ('" + item + "', " + typeAt(typeNames, i)
                                + ") is not a number");
            }
            if (weight < 0) {
                throw new ConfigException(
                        path,
                        "'" + text + "': weight " + (i + 1) + " ('" + item + "', " + typeAt(typeNames, i)
                                + ") is negative");
            }
            weights.add(weight);
            // Decimal arithmetic, so "33.33,33.33,33.34" sums to exactly 100 and the message shows what was typed.
            sum = sum.add(BigDecimal.valueOf(weight));
        }
        // Counted after the items are checked, so "50,50," is reported as an empty weight, not as a count.
        if (items.length != types.size()) {
            throw new ConfigException(
                    path,
                    "'" + text + "' has " + items.length + " weight"
                            + (items.length == 1 ? "" : "s") + " but there " + (types.size() == 1 ? "is " : "are ")
                            + types.size() + " transaction type" + (types.size() == 1 ? "" : "s") + " ("
                            + String.join(", ", typeNames) + ")");
        }
        if (sum.subtract(BigDecimal.valueOf(100)).abs().doubleValue() > WEIGHT_SUM_TOLERANCE) {
            throw new ConfigException(
                    path,
                    "'" + text + "' sums to " + sum.stripTrailingZeros().toPlainString()
                            + "; weights are percentages and must sum to 100");
        }
        return weights;
    }

    private static String typeAt(List<String> typeNames, int i) {
        return i < typeNames.size() ? typeNames.get(i) : "no transaction type";
    }
}
