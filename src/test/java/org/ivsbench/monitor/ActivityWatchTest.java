package org.ivsbench.monitor;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.db.Record;
import org.ivsbench.db.ServerActivity;
import org.ivsbench.db.Session;
import org.ivsbench.db.TableSpec;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetKind;
import org.ivsbench.stats.OperationCounts;
import org.ivsbench.stats.Window;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which windows the step detector sees: warmup and partial windows are not levels. */
class ActivityWatchTest {
    @TempDir
    Path dir;

    /** A target whose only part used here is its activity snapshot. */
    private static final class SnapshotOnly implements Target, ServerActivity {
        @Override
        public Map<String, Object> activity() {
            return Map.of("processlist", List.of());
        }

        @Override
        public TargetKind kind() {
            throw new UnsupportedOperationException();
        }

        @Override
        public Session openSession() {
            throw new UnsupportedOperationException();
        }

        @Override
        public void createTable(TableSpec table) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void dropTable(String table) {
            throw new UnsupportedOperationException();
        }

        @Override
        public long countRecords(String table) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void forEachRecord(String table, Consumer<Record> consumer) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void close() {}
    }

    private static Window window(int i, long measuredMs, long ops) {
        Histogram h = new Histogram(3);
        for (long n = 0; n < ops; n++) {
            h.recordValue(100);
        }
        Window.TypeRow row = new Window.TypeRow("ReadRecord", new OperationCounts(ops, 0, 0, 0), h, h.copy());
        return new Window(0, 1_000_000L + i * 1000L, 1000, measuredMs, new Window.TypeRow[] {row}, 0, new Histogram(3));
    }

    @Test
    void warmupWindowsBeforeAFlatPhaseTakeNoSnapshot() throws Exception {
        try (ActivityWatch watch = new ActivityWatch(new SnapshotOnly(), dir, 0)) {
            for (int i = 0; i < 8; i++) {
                watch.accept(window(i, 0, 0)); // warmup: nothing measured
            }
            watch.accept(window(8, 400, 400)); // the first, partial, measured window
            for (int i = 9; i < 30; i++) {
                watch.accept(window(i, 1000, 1000));
            }
        }
        assertFalse(Files.exists(dir.resolve("activity.jsonl")), "a flat measured phase has no step");
    }

    @Test
    void aCollapseAfterWarmupIsStillSeen() throws Exception {
        try (ActivityWatch watch = new ActivityWatch(new SnapshotOnly(), dir, 0)) {
            for (int i = 0; i < 8; i++) {
                watch.accept(window(i, 0, 0));
            }
            for (int i = 8; i < 20; i++) {
                watch.accept(window(i, 1000, 1000));
            }
            watch.accept(window(20, 1000, 0));
            watch.accept(window(21, 1000, 0));
        }
        List<String> lines = Files.readAllLines(dir.resolve("activity.jsonl"));
        assertEquals(1, lines.size(), String.join("\n", lines));
        assertTrue(lines.get(0).contains("\"window_ms\":1021000"), lines.get(0));
    }
}
