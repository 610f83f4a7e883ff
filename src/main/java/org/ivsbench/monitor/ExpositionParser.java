package org.ivsbench.monitor;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the Prometheus text exposition format (version 0.0.4, what node_exporter, mysqld_exporter,
 * postgres_exporter and process-exporter serve): one sample per line, {@code name{label="value",...} value
 * [timestamp]}; {@code #} lines (HELP, TYPE, comments) and blank lines are skipped. Label values may hold the
 * escapes {@code \\}, {@code \"} and {@code \n}; values may be {@code NaN}, {@code +Inf} and {@code -Inf}.
 * The Prometheus Java client only writes this format, so it is read here.
 */
final class ExpositionParser {

    /** One sample line: metric name, labels in their order, value (the optional timestamp is dropped). */
    record Series(String name, Map<String, String> labels, double value) {
        Series {
            labels = Collections.unmodifiableMap(new LinkedHashMap<>(labels));
        }

        String label(String key) {
            return labels.get(key);
        }
    }

    private ExpositionParser() {}

    /** Every sample of {@code text}; a malformed line is an error naming its line number and text. */
    static List<Series> parse(String text) {
        List<Series> out = new ArrayList<>();
        int lineNo = 0;
        for (String line : text.split("\n", -1)) {
            lineNo++;
            String l = line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
            String trimmed = l.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                continue;
            }
            try {
                out.add(parseLine(trimmed));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        "exposition line " + lineNo + " (" + abbreviate(trimmed) + "): " + e.getMessage(), e);
            }
        }
        return out;
    }

    static Series parseLine(String line) {
        int i = 0;
        int n = line.length();
        while (i < n && isNameChar(line.charAt(i), i == 0)) {
            i++;
        }
        if (i == 0) {
            throw new IllegalArgumentException("no metric name");
        }
        String name = line.substring(0, i);
        Map<String, String> labels = new LinkedHashMap<>();
        if (i < n && line.charAt(i) == '{') {
            i = parseLabels(line, i + 1, labels);
        }
        String rest = line.substring(i).strip();
        if (rest.isEmpty()) {
            throw new IllegalArgumentException("no value");
        }
        String[] fields = rest.split("[ \t]+");
        if (fields.length > 2) {
            throw new IllegalArgumentException("text after the value and timestamp");
        }
        return new Series(name, labels, parseValue(fields[0]));
    }

    /** Labels from just after '{' to the closing '}'; returns the index after it. */
    private static int parseLabels(String line, int start, Map<String, String> labels) {
        int i = start;
        int n = line.length();
        while (true) {
            i = skipBlanks(line, i);
            if (i < n && line.charAt(i) == '}') {
                return i + 1;
            }
            int nameStart = i;
            while (i < n && isLabelChar(line.charAt(i), i == nameStart)) {
                i++;
            }
            if (i == nameStart) {
                throw new IllegalArgumentException("bad label name at column " + (i + 1));
            }
            String key = line.substring(nameStart, i);
            i = skipBlanks(line, i);
            if (i >= n || line.charAt(i) != '=') {
                throw new IllegalArgumentException("label " + key + " has no '='");
            }
            i = skipBlanks(line, i + 1);
            if (i >= n || line.charAt(i) != '"') {
                throw new IllegalArgumentException("label " + key + "'s value is not quoted");
            }
            StringBuilder value = new StringBuilder();
            i++;
            while (true) {
                if (i >= n) {
                    throw new IllegalArgumentException("label " + key + "'s value is not closed");
                }
                char c = line.charAt(i++);
                if (c == '"') {
                    break;
                }
                if (c == '\\') {
                    if (i >= n) {
                        throw new IllegalArgumentException("label " + key + " ends in a lone backslash");
                    }
                    char e = line.charAt(i++);
                    value.append(e == 'n' ? '\n' : e); // \\ and \" stand for themselves
                } else {
                    value.append(c);
                }
            }
            labels.put(key, value.toString());
            i = skipBlanks(line, i);
            if (i < n && line.charAt(i) == ',') {
                i++;
            } else if (i < n && line.charAt(i) == '}') {
                return i + 1;
            } else {
                throw new IllegalArgumentException("expected ',' or '}' after label " + key);
            }
        }
    }

    static double parseValue(String text) {
        switch (text) {
            case "NaN":
                return Double.NaN;
            case "+Inf":
            case "Inf":
                return Double.POSITIVE_INFINITY;
            case "-Inf":
                return Double.NEGATIVE_INFINITY;
            default:
                break;
        }
        // Go's strconv.ParseFloat syntax minus hex and underscores; Java's parser also takes "1d" or "0x1p3": refuse.
        if (!text.matches("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?")) {
            throw new IllegalArgumentException("'" + text + "' is not a number");
        }
        return Double.parseDouble(text);
    }

    private static int skipBlanks(String s, int i) {
        while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) {
            i++;
        }
        return i;
    }

    private static boolean isNameChar(char c, boolean first) {
        return (c >= 'a' && c <= 'z')
                || (c >= 'A' && c <= 'Z')
                || c == '_'
                || c == ':'
                || (!first && c >= '0' && c <= '9');
    }

    private static boolean isLabelChar(char c, boolean first) {
        return c != ':' && isNameChar(c, first);
    }

    private static String abbreviate(String s) {
        return s.length() <= 80 ? s : s.substring(0, 77) + "...";
    }
}
