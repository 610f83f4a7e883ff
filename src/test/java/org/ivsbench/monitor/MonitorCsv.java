package org.ivsbench.monitor;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Test helper: monitor.csv as a list of column -> cell maps (no quoted cells in our columns). */
final class MonitorCsv {
    final List<String> header;
    final List<Map<String, String>> rows = new ArrayList<>();

    MonitorCsv(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file);
        header = List.of(lines.get(0).split(",", -1));
        for (String line : lines.subList(1, lines.size())) {
            String[] cells = line.split(",", -1);
            if (cells.length != header.size()) {
                throw new AssertionError("row has " + cells.length + " cells, header " + header.size() + ": " + line);
            }
            Map<String, String> row = new LinkedHashMap<>();
            for (int i = 0; i < cells.length; i++) {
                row.put(header.get(i), cells[i]);
            }
            rows.add(row);
        }
    }

    static double num(Map<String, String> row, String column) {
        String v = row.get(column);
        return v == null || v.isEmpty() ? Double.NaN : Double.parseDouble(v);
    }
}
