package org.ivsbench.monitor;

import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Writes monitor.csv (docs/results-format.md): {@code time_ms,interval_ms,phase,source} then metric columns.
 * The column set is fixed by the first row (plus any columns declared before it) so the file can be streamed
 * and flushed row by row; a metric that appears later is not written, one that is missing is an empty cell.
 */
public final class MonitorCsvWriter implements Closeable {
    private final BufferedWriter out;
    private final Set<String> declared = new LinkedHashSet<>();
    private List<String> columns;

    public MonitorCsvWriter(Path file) throws IOException {
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

    /** Integers as integers; fractions rounded to 3 decimals (enough for percentages and per-second rates). */
    static String format(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        return BigDecimal.valueOf(v).setScale(3, java.math.RoundingMode.HALF_UP).stripTrailingZeros().toPlainString();
    }

    private static String escape(String s) {
        return s.indexOf(',') >= 0 || s.indexOf('"') >= 0 ? '"' + s.replace("\"", "\"\"") + '"' : s;
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
