package org.ivsbench.config;

import java.util.Collection;
import java.util.List;
import java.util.Locale;

/**
 * Typed reading of a config's leaf values: the one place where text becomes a number, a boolean or a choice,
 * so every section - the core ones walked as {@link Element}s, a benchmark's parameters and the
 * {@code <experiment>} read through a {@link LeafView} - reports a bad value with the same path and words
 * ({@code works/work[2]/time: '10s' is not an integer}). Every reader returns its default when the leaf is absent.
 */
public abstract class Leaves {
    Leaves() {}

    /** The text of leaf {@code name} (trimmed), or null when absent. */
    public abstract String leaf(String name) throws ConfigException;

    /** The path the user sees for leaf {@code name}, e.g. {@code works/work[2]/rate} or {@code experiment/epochs}. */
    public abstract String childPath(String name);

    /** An error at leaf {@code name}: the message should quote the value. */
    public ConfigException error(String name, String message) {
        return new ConfigException(childPath(name), message);
    }

    /** The leaf's text, or {@code defaultValue} when absent. */
    public String string(String name, String defaultValue) throws ConfigException {
        String text = leaf(name);
        return text == null ? defaultValue : text;
    }

    /** The leaf's text; an error naming {@code why} when absent. */
    public String required(String name, String why) throws ConfigException {
        String text = leaf(name);
        if (text == null) {
            throw error(name, "missing: " + why);
        }
        return text;
    }

    /** A whole number; {@code defaultValue} when absent. */
    public long longValue(String name, long defaultValue) throws ConfigException {
        String text = leaf(name);
        return text == null ? defaultValue : parseLong(childPath(name), text);
    }

    /** A whole number in [min, max] that must be given: "missing: why" when absent. */
    public long requiredLong(String name, long min, long max, String why) throws ConfigException {
        required(name, why);
        return longBetween(name, 0, min, max);
    }

    public long longAtLeast(String name, long defaultValue, long min) throws ConfigException {
        return longBetween(name, defaultValue, min, Long.MAX_VALUE);
    }

    /**
     * A whole number in [min, max]. Errors: "'x' is not an integer", "'x' must be at least min" and, for a
     * bounded range, "'x' is too large (at most max)".
     */
    public long longBetween(String name, long defaultValue, long min, long max) throws ConfigException {
        String text = leaf(name);
        if (text == null) {
            return defaultValue;
        }
        long value = parseLong(childPath(name), text);
        if (value < min) {
            throw error(name, "'" + text + "' must be at least " + min);
        }
        if (value > max) {
            throw error(name, "'" + text + "' is too large (at most " + max + ")");
        }
        return value;
    }

    public int intAtLeast(String name, int defaultValue, int min) throws ConfigException {
        return (int) longBetween(name, defaultValue, min, Integer.MAX_VALUE);
    }

    /** A finite decimal number (plain notation); {@code defaultValue} when absent. */
    public double decimal(String name, double defaultValue) throws ConfigException {
        String text = leaf(name);
        return text == null ? defaultValue : parseFinite(childPath(name), text, "a number");
    }

    public boolean bool(String name, boolean defaultValue) throws ConfigException {
        String text = leaf(name);
        if (text == null) {
            return defaultValue;
        }
        return switch (text.toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw error(name, "'" + text + "' is not true or false");
        };
    }

    /**
     * One of {@code choices} (matched ignoring case; the choice as listed is returned), or {@code defaultValue}
     * when absent. Error: "'x' is not a, b or c".
     */
    public String choice(String name, String defaultValue, List<String> choices) throws ConfigException {
        String text = leaf(name);
        if (text == null) {
            return defaultValue;
        }
        for (String c : choices) {
            if (c.equalsIgnoreCase(text)) {
                return c;
            }
        }
        String last = choices.get(choices.size() - 1);
        String list =
                choices.size() == 1 ? last : String.join(", ", choices.subList(0, choices.size() - 1)) + " or " + last;
        throw error(name, "'" + text + "' is not " + list);
    }

    static long parseLong(String path, String text) throws ConfigException {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new ConfigException(path, "'" + text + "' is not an integer");
        }
    }

    /** A finite decimal number; NaN and Infinity are never meant in a config. */
    static double parseFinite(String path, String text, String what) throws ConfigException {
        double value = isDecimal(text) ? Double.parseDouble(text) : Double.NaN;
        if (!Double.isFinite(value)) {
            throw new ConfigException(path, "'" + text + "' is not " + what);
        }
        return value;
    }

    /**
     * Plain decimal notation only: Double.parseDouble would also take "NaN", "0x1p3" or "50d", none of which a
     * person means in a config.
     */
    static boolean isDecimal(String text) {
        return DECIMAL.matcher(text).matches();
    }

    private static final java.util.regex.Pattern DECIMAL =
            java.util.regex.Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");

    /** The error for a child that {@code known} does not list, with a "did you mean" for near misses. */
    static ConfigException unknown(String path, String name, Collection<String> known) {
        return new ConfigException(
                path, "unknown element" + suggestion(name, known) + " (known: " + String.join(", ", known) + ")");
    }

    /** " (did you mean 'rate'?)" for near misses such as a wrong case or a one-letter typo, else "". */
    static String suggestion(String unknown, Collection<String> known) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String candidate : known) {
            if (candidate.equalsIgnoreCase(unknown)) {
                return " (did you mean '" + candidate + "'?)";
            }
            int d = distance(unknown.toLowerCase(Locale.ROOT), candidate.toLowerCase(Locale.ROOT));
            if (d < bestDistance) {
                bestDistance = d;
                best = candidate;
            }
        }
        return best != null && bestDistance <= 2 && bestDistance < unknown.length()
                ? " (did you mean '" + best + "'?)"
                : "";
    }

    private static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
