package org.ivsbench.random;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A distribution expression as written in a config: a name and optional numeric parameters, e.g.
 * {@code zipfian}, {@code normal(mean=0.5, stddev=0.05)}. Parsing checks the syntax only; which names and
 * parameters exist, their ranges and defaults are the catalog's business ({@link #resolve}).
 *
 * @param name       lower case
 * @param parameters as written (validated and with defaults filled in after {@link #resolve})
 * @param text       the expression as given, for messages
 */
public record DistributionSpec(String name, Map<String, Double> parameters, String text) {
    private static final Pattern EXPRESSION = Pattern.compile("([a-z][a-z-]*)\\s*(?:\\((.*)\\))?");
    private static final Pattern PARAMETER = Pattern.compile("([a-z][a-z0-9]*)\\s*=\\s*(.*)");
    private static final Pattern DECIMAL = Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");

    public DistributionSpec {
        parameters = Collections.unmodifiableMap(new LinkedHashMap<>(parameters));
    }

    /** True when the expression names a distribution without parameters. */
    public boolean plain() {
        return parameters.isEmpty();
    }

    public double get(String parameter) {
        Double v = parameters.get(parameter);
        if (v == null) {
            throw new IllegalStateException("parameter " + parameter + " of " + name + " was not resolved");
        }
        return v;
    }

    /** The value of an optional parameter that has no default, or NaN when it was not given. */
    public double getOrNaN(String parameter) {
        Double v = parameters.get(parameter);
        return v == null ? Double.NaN : v;
    }

    /**
     * @throws IllegalArgumentException naming what is wrong: not {@code name} or {@code name(key=value, ...)},
     *                                  an empty or non-decimal value, a parameter given twice
     */
    public static DistributionSpec parse(String text) {
        String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        Matcher m = EXPRESSION.matcher(t);
        if (!m.matches()) {
            throw new IllegalArgumentException("is not a distribution expression: name or name(key=value, ...)");
        }
        Map<String, Double> parameters = new LinkedHashMap<>();
        String inside = m.group(2);
        if (inside != null && !inside.isBlank()) {
            for (String part : inside.split(",", -1)) {
                Matcher p = PARAMETER.matcher(part.trim());
                if (!p.matches()) {
                    throw new IllegalArgumentException("'" + part.trim() + "' is not key=value");
                }
                String value = p.group(2).trim();
                if (!DECIMAL.matcher(value).matches()) {
                    throw new IllegalArgumentException(
                            "parameter " + p.group(1) + " needs a decimal number, got '" + value + "'");
                }
                if (parameters.put(p.group(1), Double.parseDouble(value)) != null) {
                    throw new IllegalArgumentException("parameter " + p.group(1) + " is given twice");
                }
            }
        }
        return new DistributionSpec(m.group(1), parameters, text == null ? "" : text.trim());
    }

    /**
     * This spec checked against one catalog entry: unknown parameters and values out of range are errors,
     * missing parameters get their default or, with none, are an error unless optional.
     */
    public DistributionSpec resolve(List<Parameter> allowed) {
        Map<String, Double> resolved = new LinkedHashMap<>();
        for (String given : parameters.keySet()) {
            if (allowed.stream().noneMatch(a -> a.name().equals(given))) {
                throw new IllegalArgumentException(name + " has no parameter '" + given + "'"
                        + (allowed.isEmpty() ? " (it takes none)" : "; it takes " + names(allowed)));
            }
        }
        for (Parameter a : allowed) {
            Double v = parameters.get(a.name());
            if (v == null) {
                if (a.required()) {
                    throw new IllegalArgumentException(
                            name + " needs parameter " + a.name() + " (" + a.range() + "); it takes " + names(allowed));
                }
                if (Double.isNaN(a.fallback())) {
                    continue; // optional without a default: absence has its own meaning
                }
                v = a.fallback();
            }
            if (!a.accepts(v)) {
                throw new IllegalArgumentException(
                        name + " parameter " + a.name() + "=" + format(v) + " must be " + a.range());
            }
            resolved.put(a.name(), v);
        }
        return new DistributionSpec(name, resolved, text);
    }

    private static String names(List<Parameter> allowed) {
        return String.join(", ", allowed.stream().map(Parameter::name).toList());
    }

    static String format(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }

    /**
     * One parameter a distribution takes.
     *
     * @param fallback the default; NaN for none
     * @param required an error when absent (the fallback is then unused)
     * @param min      lowest allowed value, exclusive when minOpen
     * @param max      highest allowed value, exclusive when maxOpen
     */
    public record Parameter(
            String name, double fallback, boolean required, double min, boolean minOpen, double max, boolean maxOpen) {
        public static Parameter withDefault(
                String name, double fallback, double min, boolean minOpen, double max, boolean maxOpen) {
            return new Parameter(name, fallback, false, min, minOpen, max, maxOpen);
        }

        public static Parameter required(String name, double min, boolean minOpen, double max, boolean maxOpen) {
            return new Parameter(name, Double.NaN, true, min, minOpen, max, maxOpen);
        }

        public static Parameter optional(String name, double min, boolean minOpen, double max, boolean maxOpen) {
            return new Parameter(name, Double.NaN, false, min, minOpen, max, maxOpen);
        }

        boolean accepts(double v) {
            return Double.isFinite(v) && (minOpen ? v > min : v >= min) && (maxOpen ? v < max : v <= max);
        }

        String range() {
            boolean noMin = min == Double.NEGATIVE_INFINITY;
            boolean noMax = max == Double.POSITIVE_INFINITY;
            if (noMin && noMax) {
                return "a finite number";
            }
            if (noMax) {
                return (minOpen ? "> " : ">= ") + format(min);
            }
            if (noMin) {
                return (maxOpen ? "< " : "<= ") + format(max);
            }
            return "in " + (minOpen ? "(" : "[") + format(min) + ", " + format(max) + (maxOpen ? ")" : "]");
        }
    }
}
