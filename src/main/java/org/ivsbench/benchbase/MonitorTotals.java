package org.ivsbench.benchbase;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The database's own counters over a run, from monitor.csv's {@code db.*} columns: for each, {@code total} (the sum
 * of the per-interval values: the run's delta for a counter) and {@code last} (the value in the last interval: the
 * reading for a gauge). BenchBase's metrics.json holds the server's status after the run; this is its nearest
 * equivalent without another query to the server.
 */
final class MonitorTotals {
    private MonitorTotals() {}

    static Map<String, Object> read(Path monitorCsv) throws IOException {
        Map<String, Object> metrics = new LinkedHashMap<>();
        if (!Files.exists(monitorCsv)) {
            return metrics;
        }
        List<String> lines = Files.readAllLines(monitorCsv, StandardCharsets.UTF_8);
        if (lines.isEmpty()) {
            return metrics;
        }
        String[] header = lines.get(0).split(",", -1);
        double[] totals = new double[header.length];
        String[] last = new String[header.length];
        for (int i = 1; i < lines.size(); i++) {
            String[] cells = lines.get(i).split(",", -1);
            for (int c = 0; c < Math.min(cells.length, header.length); c++) {
                if (header[c].startsWith("db.") && !cells[c].isEmpty()) {
                    try {
                        totals[c] += Double.parseDouble(cells[c]);
                        last[c] = cells[c];
                    } catch (NumberFormatException e) {
                        last[c] = cells[c]; // a text cell: kept as read
                    }
                }
            }
        }
        for (int c = 0; c < header.length; c++) {
            if (header[c].startsWith("db.") && last[c] != null) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("total", totals[c]);
                m.put("last", last[c]);
                metrics.put(header[c].substring(3), m);
            }
        }
        return metrics;
    }
}
