package org.ivsbench.stats;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.op.Outcome;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A phase's first and last windows are partial: their rates in samples.csv are over the part of the window the
 * phase was measured in, which the row states in measured_ms.
 */
class PartialWindowTest {
    @TempDir
    Path dir;

    private static void record(PhaseStats stats, int n) {
        for (int i = 0; i < n; i++) {
            stats.record(0, Outcome.OK, 1000, 1000, 0, 0, null);
        }
    }

    @Test
    void firstAndLastWindowsRateOverTheirMeasuredPart() throws Exception {
        PhaseStats stats = new PhaseStats(0, "p", List.of("A"));
        // Warmup from 10,200 to 10,700 ms, measured until 12,300 ms.
        stats.markStarted(10_200, 10_700);
        List<Window> windows = new ArrayList<>();
        record(stats, 30);
        windows.add(stats.drain(10_000, 1000)); // measured 10,700-11,000: 300 ms
        record(stats, 100);
        stats.recordMissed(1_500_000);
        stats.recordMissed(400_000);
        windows.add(stats.drain(11_000, 1000)); // full
        stats.markScheduleEnded(12_300, 1.6);
        record(stats, 30);
        windows.add(stats.drain(12_000, 1000)); // measured 12,000-12,300: 300 ms
        record(stats, 2);
        windows.add(stats.drain(13_000, 1000)); // operations still in flight at the end: no measured time
        Path file = dir.resolve("samples.csv");
        try (SamplesCsvWriter w = new SamplesCsvWriter(file)) {
            for (Window window : windows) {
                w.write(window);
            }
        }
        List<Map<String, String>> all = new ArrayList<>();
        List<String> lines = Files.readAllLines(file);
        String[] header = lines.get(0).split(",", -1);
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",", -1);
            Map<String, String> row = new HashMap<>();
            for (int i = 0; i < header.length; i++) {
                row.put(header[i], f[i]);
            }
            if (row.get("type").equals("ALL")) {
                all.add(row);
            }
        }
        assertEquals(
                List.of("100.000", "100.000", "100.000", ""),
                all.stream().map(r -> r.get("throughput")).toList(),
                "throughput per window");
        assertEquals(
                List.of("300", "1000", "300", "0"),
                all.stream().map(r -> r.get("measured_ms")).toList());
        assertEquals(
                List.of("1000", "1000", "1000", "1000"),
                all.stream().map(r -> r.get("window_ms")).toList());
        // The arrivals given up in a window, and how late they were then.
        assertEquals(
                List.of("0", "2", "0", "0"),
                all.stream().map(r -> r.get("missed")).toList());
        assertEquals(
                List.of("", "1500", "", ""),
                all.stream().map(r -> r.get("missed_late_max_us")).toList());
        assertEquals(
                List.of("", "400", "", ""),
                all.stream().map(r -> r.get("missed_late_p50_us")).toList());
    }
}
