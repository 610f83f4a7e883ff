package org.ivsbench.config;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

import org.apache.commons.configuration2.tree.ImmutableNode;

/**
 * One XML element with the path the user sees in errors ({@code works/work[2]/rate}). All strictness lives
 * here: unknown children, repeated single elements, attributes and stray text are rejected, so a typo can never
 * silently fall back to a default.
 */
final class Element {
    private final ImmutableNode node;
    private final String path;

    Element(ImmutableNode node, String path) {
        this.node = node;
        this.path = path;
    }

    String path() {
        return path;
    }

    String name() {
        return node.getNodeName();
    }

    String childPath(String child) {
        return path.isEmpty() ? child : path + "/" + child;
    }

    boolean hasChildren() {
        return !node.getChildren().isEmpty();
    }

    /** Rejects attributes, stray text and every child element whose name is not in {@code known}. */
    Element requireSection(Collection<String> known) throws ConfigException {
        requireContainer();
        for (ImmutableNode child : node.getChildren()) {
            if (!known.contains(child.getNodeName())) {
                throw new ConfigException(
                        childPath(child.getNodeName()),
                        "unknown element" + suggestion(child.getNodeName(), known) + " (known: "
                                + String.join(", ", known) + ")");
            }
        }
        return this;
    }

    /** Rejects attributes and text: a section holds elements only. */
    void requireContainer() throws ConfigException {
        requireNoAttributes();
        String text = rawText();
        if (!text.isBlank()) {
            throw new ConfigException(
                    path, "unexpected text '" + text.strip() + "' (this element holds only elements)");
        }
    }

    void requireNoAttributes() throws ConfigException {
        for (String attribute : node.getAttributes().keySet()) {
            throw new ConfigException(
                    path + "/@" + attribute,
                    "unknown attribute '" + attribute + "' with value '"
                            + node.getAttributes().get(attribute) + "' (ivsbench config elements take no attributes)");
        }
    }

    /** The child named {@code name}, or null; an error when it is given more than once. */
    Element single(String name) throws ConfigException {
        List<ImmutableNode> found = node.getChildren(name);
        if (found.isEmpty()) {
            return null;
        }
        if (found.size() > 1) {
            List<String> values = new ArrayList<>();
            for (ImmutableNode n : found) {
                values.add("'" + textOf(n).strip() + "'");
            }
            throw new ConfigException(
                    childPath(name),
                    "given " + found.size() + " times (" + String.join(", ", values) + "); give it once");
        }
        return new Element(found.get(0), childPath(name));
    }

    /** Every child named {@code name}, with 1-based indices in their paths even when there is only one. */
    List<Element> repeated(String name) {
        List<ImmutableNode> found = node.getChildren(name);
        List<Element> result = new ArrayList<>(found.size());
        for (int i = 0; i < found.size(); i++) {
            result.add(new Element(found.get(i), childPath(name) + "[" + (i + 1) + "]"));
        }
        return result;
    }

    List<Element> children() {
        List<Element> result = new ArrayList<>();
        for (ImmutableNode child : node.getChildren()) {
            result.add(new Element(child, childPath(child.getNodeName())));
        }
        return result;
    }

    /** The text of a leaf element (trimmed by the parser); an error when it has attributes or child elements. */
    String text() throws ConfigException {
        requireNoAttributes();
        if (hasChildren()) {
            throw new ConfigException(
                    path,
                    "expected a value, found child element <"
                            + node.getChildren().get(0).getNodeName() + ">");
        }
        return rawText();
    }

    private String rawText() {
        return textOf(node);
    }

    private static String textOf(ImmutableNode n) {
        Object value = n.getValue();
        return value == null ? "" : value.toString();
    }

    /** Leaf text of child {@code name}, or null when absent. */
    String leaf(String name) throws ConfigException {
        Element child = single(name);
        return child == null ? null : child.text();
    }

    // ---- typed leaves: each returns the default when the element is absent ----

    long longAtLeast(String name, long defaultValue, long min) throws ConfigException {
        String text = leaf(name);
        if (text == null) {
            return defaultValue;
        }
        long value = parseLong(childPath(name), text);
        if (value < min) {
            throw new ConfigException(childPath(name), "'" + text + "' must be at least " + min);
        }
        return value;
    }

    int intAtLeast(String name, int defaultValue, int min) throws ConfigException {
        String text = leaf(name);
        if (text == null) {
            return defaultValue;
        }
        long value = parseLong(childPath(name), text);
        if (value > Integer.MAX_VALUE) {
            throw new ConfigException(
                    childPath(name), "'" + text + "' is too large (at most " + Integer.MAX_VALUE + ")");
        }
        if (value < min) {
            throw new ConfigException(childPath(name), "'" + text + "' must be at least " + min);
        }
        return (int) value;
    }

    boolean bool(String name, boolean defaultValue) throws ConfigException {
        String text = leaf(name);
        if (text == null) {
            return defaultValue;
        }
        return switch (text.toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new ConfigException(childPath(name), "'" + text + "' is not true or false");
        };
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

    private static final Pattern DECIMAL = Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");

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
