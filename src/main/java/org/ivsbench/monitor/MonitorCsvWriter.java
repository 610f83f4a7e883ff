package org.ivsbench.monitor;

import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Writes monitor.csv (docs/results-format.md): {@code time_ms,interval_ms,phase,source} then metric columns.
 * The columns are those of the first row (plus any declared before it), and the file is streamed and flushed
 * row by row. A metric missing from a row is an empty cell. A metric that first appears later (a disk or
 * network interface that comes up, a counter the server starts to report) widens the file: it is rewritten
 * once, to a temporary file moved into place, with the new column at the end and empty cells in the rows
 * before, so no column is ever dropped.
 */
public final class MonitorCsvWriter implements Closeable {
    private final Path file;
    private BufferedWriter out;
    private final Set<String> declared = new LinkedHashSet<>();
    private List<String> columns;

    public MonitorCsvWriter(Path file) throws IOException {
        this.file = file;
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        this.out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
    }

    /** Columns that must be in the header even if the first row lacks them (e.g. an agent not yet heard). */
    public void declare(Collection<String> metricColumns) {
        if (columns == null) {
            declared.addAll(metricColumns);
        }
    }

    /** {@code phase} < 0 means between phases (empty cell). */
    public void write(long timeMs, long intervalMs, int phase, String source, Map<String, Double> metrics) {
        try {
            if (columns == null) {
                Set<String> all = new LinkedHashSet<>(declared);
                all.addAll(metrics.keySet());
                columns = new ArrayList<>(all);
                StringBuilder h = new StringBuilder("time_ms,interval_ms,phase,source");
                for (String c : columns) {
                    h.append(',').append(escape(c));
                }
                out.write(h.append('\n').toString());
            } else if (!columns.containsAll(metrics.keySet())) {
                widen(metrics.keySet());
            }
            StringBuilder row = new StringBuilder(16 * (columns.size() + 4));
            row.append(timeMs).append(',').append(intervalMs).append(',');
            if (phase >= 0) {
                row.append(phase);
            }
            row.append(',').append(source);
            for (String c : columns) {
                row.append(',');
                Double v = metrics.get(c);
                if (v != null && Double.isFinite(v)) {
                    row.append(format(v));
                }
            }
            out.write(row.append('\n').toString());
            // Flushed every row: what was measured survives a crash or kill of the client.
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Appends the new columns: the file so far is rewritten with empty cells for them, then reopened. */
    private void widen(Set<String> names) throws IOException {
        List<String> added = new ArrayList<>();
        for (String n : names) {
            if (!columns.contains(n)) {
                added.add(n);
            }
        }
        out.close();
        StringBuilder header = new StringBuilder();
        StringBuilder pad = new StringBuilder();
        for (String c : added) {
            header.append(',').append(escape(c));
            pad.append(',');
        }
        Path tmp = file.resolveSibling(file.getFileName() + ".widen");
        try (BufferedWriter w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8);
                Stream<String> lines = Files.lines(file, StandardCharsets.UTF_8)) {
            boolean[] first = {true};
            lines.forEach(line -> {
                try {
                    w.write(line);
                    w.write(first[0] ? header.toString() : pad.toString());
                    w.write('\n');
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                first[0] = false;
            });
        }
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        columns.addAll(added);
        out = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
    }

    /** Integers as integers; fractions rounded to 3 decimals (enough for percentages and per-second rates). */
    static String format(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        return BigDecimal.valueOf(v)
                .setScale(3, RoundingMode.HALF_UP)
                .stripTrailingZeros()
                .toPlainString();
    }

    private static String escape(String s) {
        return s.indexOf(',') >= 0 || s.indexOf('"') >= 0 ? '"' + s.replace("\"", "\"\"") + '"' : s;
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
