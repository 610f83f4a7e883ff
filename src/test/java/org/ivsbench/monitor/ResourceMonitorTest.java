package org.ivsbench.monitor;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.config.MonitorConfig;
import org.ivsbench.db.TargetKinds;
import org.ivsbench.testsupport.Await;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The monitor's loop with fake sources: alignment, columns (late ones widen the file), failures that leave cells empty. */
class ResourceMonitorTest {
    private static final long INTERVAL = 100;

    @TempDir
    Path dir;

    @Test
    void failingCounterReadsLeaveEmptyCellsAndTheLoopGoesOn() throws Exception {
        AtomicInteger reads = new AtomicInteger();
        AtomicInteger hostCalls = new AtomicInteger();
        CounterSource flaky = new CounterSource() {
            @Override
            public Map<String, Double> snapshot() {
                int n = reads.incrementAndGet();
                if (n >= 3 && n <= 4) {
                    throw new IllegalStateException("server went away");
                }
                return Map.of("Com_select", 10.0 * n, "Threads_connected", 2.0);
            }

            @Override
            public boolean isGauge(String name) {
                return name.equals("Threads_connected");
            }
        };
        HostSampler host = () -> {
            int n = hostCalls.getAndIncrement();
            if (n == 5) {
                throw new IllegalStateException("a broken host sampler must not kill the loop");
            }
            Map<String, Double> m = new LinkedHashMap<>();
            m.put("os.cpu.idle_pct", 90.0);
            if (n > 2) {
                m.put("os.late.metric", 1.0); // appears after the header: the file widens
            }
            return m;
        };
        AtomicInteger phase = new AtomicInteger(1);
        Path csv = dir.resolve("m").resolve("monitor.csv");
        MonitorConfig config = new MonitorConfig(true, INTERVAL, null, null, null);
        try (ResourceMonitor m = ResourceMonitor.start(
                config, host, null, flaky, CounterSelection.defaults(TargetKinds.of("MARIADB")), csv, phase::get)) {
            // Waits on what the loop did, not on the wall clock: ten counter reads (one per tick after the
            // baseline), then two more with no phase running, so the last row is between phases.
            awaitReads(reads, 10);
            phase.set(-1);
            awaitReads(reads, reads.get() + 2);
        }
        MonitorCsv table = new MonitorCsv(csv);
        assertEquals(
                List.of(
                        "time_ms",
                        "interval_ms",
                        "phase",
                        "source",
                        "client.cpu_pct",
                        "os.cpu.idle_pct",
                        "db.Com_select",
                        "db.Threads_connected",
                        "os.late.metric"),
                table.header);
        assertEquals("", table.rows.get(0).get("os.late.metric"), "rows before it have an empty cell");
        assertEquals("1", table.rows.get(table.rows.size() - 1).get("os.late.metric"));
        // The first read is the baseline; every later one (each tick and the final one at close) ends a row.
        assertEquals(reads.get() - 1, table.rows.size(), "rows for " + reads.get() + " counter reads");
        assertEquals(reads.get(), hostCalls.get(), "host and counters are sampled together");
        int emptyDb = 0;
        long previous = Long.MIN_VALUE;
        for (Map<String, String> row : table.rows) {
            long t = Long.parseLong(row.get("time_ms"));
            assertEquals(0, t % INTERVAL);
            assertTrue(t > previous);
            previous = t;
            if (row.get("db.Com_select").isEmpty()) {
                emptyDb++;
            } else {
                assertEquals(10.0, MonitorCsv.num(row, "db.Com_select"), "one read per interval, 10 apart");
            }
        }
        // reads 3 and 4 fail; read 5 only re-establishes the baseline
        assertEquals(3, emptyDb, "rows with empty counter cells");
        assertEquals("1", table.rows.get(0).get("phase"));
        assertEquals("", table.rows.get(table.rows.size() - 1).get("phase"), "between phases");
    }

    /**
     * Until the monitor has read its counters {@code n} times. The limit only ends a hung test: it is far from
     * anything a slow machine needs for a dozen 100 ms ticks.
     */
    private static void awaitReads(AtomicInteger reads, int n) throws Exception {
        Await.until(
                "the monitor's " + n + " counter reads",
                Duration.ofSeconds(60),
                Duration.ofMillis(INTERVAL / 4),
                reads::get,
                r -> r >= n);
    }

    @Test
    void numbersAreWrittenCompactly() {
        assertEquals("12", MonitorCsvWriter.format(12.0));
        assertEquals("12.5", MonitorCsvWriter.format(12.5));
        assertEquals("33.333", MonitorCsvWriter.format(100.0 / 3));
        assertEquals("24346370048", MonitorCsvWriter.format(24346370048.0));
    }

    @Test
    void aMetricThatAppearsLaterWidensTheFileInsteadOfBeingDropped() throws Exception {
        Path file = Files.createTempDirectory("monitor-widen").resolve("monitor.csv");
        try (MonitorCsvWriter w = new MonitorCsvWriter(file)) {
            w.write(1000, 1000, 0, "local", Map.of("a", 1.0));
            w.write(2000, 1000, 0, "local", Map.of("a", 2.0, "os.disk.sdb.read_ops_ps", 5.0));
            w.write(3000, 1000, -1, "local", Map.of("os.disk.sdb.read_ops_ps", 6.0));
        }
        MonitorCsv csv = new MonitorCsv(file); // also checks every row has the header's cell count
        assertEquals(List.of("time_ms", "interval_ms", "phase", "source", "a", "os.disk.sdb.read_ops_ps"), csv.header);
        assertEquals(3, csv.rows.size());
        assertEquals("", csv.rows.get(0).get("os.disk.sdb.read_ops_ps"));
        assertEquals("5", csv.rows.get(1).get("os.disk.sdb.read_ops_ps"));
        assertEquals("2", csv.rows.get(1).get("a"));
        assertEquals("", csv.rows.get(2).get("a"));
        assertEquals("6", csv.rows.get(2).get("os.disk.sdb.read_ops_ps"));
        assertEquals("", csv.rows.get(2).get("phase"));
        assertFalse(Files.exists(file.resolveSibling("monitor.csv.widen")), "no temporary file left");
    }
}
