package org.ivsbench.mode;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;

import org.ivsbench.stats.LatencySummary;
import org.ivsbench.stats.OperationCounts;
import org.ivsbench.stats.PhaseSummary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The final table's columns and the load progress line. */
class ConsoleOutputTest {
    private static String capture(Consumer<PrintStream> body) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        body.accept(out);
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void abortedAndErrorsAreSeparateColumns() {
        LatencySummary l = new LatencySummary(1000.0, 10.0, 900L, 1100L, 1200L, 1500L, 1800L, 2000L);
        Map<String, PhaseSummary.TypeSummary> types = new LinkedHashMap<>();
        types.put(
                "ReadModifyWriteRecord",
                new PhaseSummary.TypeSummary(
                        new OperationCounts(50, 0, 7, 3), 60.0, 50.0, l, l, 0, 0, Map.of("database error", 3L)));
        PhaseSummary p = new PhaseSummary(
                0, "phase0", 0, 0, 1000, 1.0, 0, 4, new OperationCounts(50, 0, 7, 3), 60.0, 50.0, l, l, l, 0, 0, types);
        String table = capture(out -> SummaryTable.print(out, List.of(p)));
        List<String> lines = table.strip().lines().toList();
        List<String> header = Arrays.asList(lines.get(0).trim().split("\\s+"));
        assertEquals(
                List.of(
                        "phase", "seconds", "ops", "ops/s", "goodput", "missed", "skipped", "aborted", "errors", "p50",
                        "ms", "p99", "ms", "max", "ms"),
                header);
        List<String> phase = Arrays.asList(lines.get(1).trim().split("\\s+"));
        assertEquals(List.of("phase0", "1.0", "60", "60.0", "50.0", "4", "0", "7", "3"), phase.subList(0, 9));
        List<String> type = Arrays.asList(lines.get(2).trim().split("\\s+"));
        assertEquals(List.of("ReadModifyWriteRecord", "60", "60.0", "50.0", "0", "7", "3"), type.subList(0, 7));
        // Columns line up: the long type name widened the first column for every row.
        assertEquals(
                lines.get(0).indexOf("errors") + "errors".length(), lines.get(2).indexOf(" 3 ") + 2);
    }

    @Test
    void plainLoadProgressPrintsNoRepeatsAndARate() {
        AtomicLong now = new AtomicLong(0);
        String text = capture(out -> {
            try (LoadProgressBar bar = new LoadProgressBar(out, false, now::get)) {
                bar.starting(1000);
                for (int i = 1; i <= 10; i++) {
                    now.addAndGet(1_000_000_000L); // one second per batch
                    bar.loaded(i * 100, i * 100_000);
                }
                bar.done();
            }
        });
        List<String> lines = text.strip().lines().toList();
        assertEquals(
                List.of(
                                "Loading 500/1,000 records (50%) 100 records/s, 0.1 MB/s",
                                "Loading 1,000/1,000 records (100%) 100 records/s, 0.1 MB/s")
                        .subList(0, 1),
                lines,
                "one line per 5 s, none for the finished load (the Loaded summary says it): " + text);
        assertFalse(text.contains("?/s"));
    }

    @Test
    void interactiveBarShowsTheRate() {
        AtomicLong now = new AtomicLong(0);
        String text = capture(out -> {
            try (LoadProgressBar bar = new LoadProgressBar(out, true, now::get)) {
                bar.starting(1000);
                now.addAndGet(500_000_000L);
                bar.loaded(1000, 1_000_000);
                bar.done();
            }
        });
        String[] frames = text.split("[\r\n]+");
        String last = frames[frames.length - 1];
        assertTrue(last.contains("1000/1000") && last.contains("2,000 records/s, 2.0 MB/s"), text);
        assertFalse(text.contains("?/s"), text);
    }
}
