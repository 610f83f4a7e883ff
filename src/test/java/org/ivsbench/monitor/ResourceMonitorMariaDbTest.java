package org.ivsbench.monitor;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.config.MonitorConfig;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetKinds;
import org.ivsbench.db.Targets;
import org.ivsbench.testsupport.Await;
import org.ivsbench.testsupport.TestServers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The monitor against the private MariaDB through the production binding (the MariaDB target's counters and
 * kinds, the kind's default selection): alignment, counter deltas that add up, the server's own cpu.
 */
class ResourceMonitorMariaDbTest {
    private static final String COUNTER = "Innodb_buffer_pool_read_requests";
    private static final long INTERVAL = 250;
    private static final int SELECTS = 3000;

    @TempDir
    Path dir;

    /** Selects run so far and the monitor's counter reads. */
    private record Load(int selects, int counterReads) {}

    /** Until the monitor has read the counters {@code n} times; the limit only ends a hung test. */
    private static void awaitReads(List<Double> seen, int n) throws Exception {
        Await.until(
                "the monitor's " + n + " counter reads",
                Duration.ofSeconds(60),
                Duration.ofMillis(INTERVAL / 5),
                seen::size,
                size -> size >= n);
    }

    @Test
    void rowsAreAlignedAndCounterDeltasAddUpToTheServersOwnTotals() throws Exception {
        String url = TestServers.mariadbUrl();
        String user = TestServers.mariadbUser();
        String password = TestServers.mariadbPassword();
        String pidFile = TestServers.mariadbPidFile();
        try (Connection c = DriverManager.getConnection(url, user, password);
                Target target = Targets.open(TestServers.mariadb())) {
            CounterSource server = CounterSource.of(target);
            // Every value the monitor read, in order: its rows must be exactly the differences between them.
            List<Double> seen = Collections.synchronizedList(new ArrayList<>());
            CounterSource counters = new CounterSource() {
                @Override
                public Map<String, Double> snapshot() throws Exception {
                    Map<String, Double> m = server.snapshot();
                    seen.add(m.get(COUNTER));
                    return m;
                }

                @Override
                public boolean isGauge(String name) {
                    return server.isGauge(name);
                }
            };
            try (Statement st = c.createStatement()) {
                st.execute("DROP TABLE IF EXISTS monitor_it");
                st.execute("CREATE TABLE monitor_it (k INT PRIMARY KEY, v VARCHAR(100)) ENGINE=InnoDB");
                st.execute("INSERT INTO monitor_it SELECT seq, REPEAT('x', 100) FROM seq_1_to_1000");
            }
            AtomicInteger phase = new AtomicInteger(-1);
            Path csv = dir.resolve("monitor.csv");
            MonitorConfig config = new MonitorConfig(true, INTERVAL, null, null, pidFile);

            double before = server.snapshot().get(COUNTER);
            long start = System.currentTimeMillis();
            long loadStart;
            long loadEnd;
            AtomicInteger selects = new AtomicInteger();
            try (ResourceMonitor monitor = ResourceMonitor.start(
                    config, counters, CounterSelection.defaults(TargetKinds.of("MARIADB")), csv, phase::get)) {
                awaitReads(seen, 2);
                phase.set(0);
                loadStart = System.currentTimeMillis();
                try (PreparedStatement ps = c.prepareStatement("SELECT v FROM monitor_it WHERE k = ?")) {
                    // A count, not a time: how long it takes is the box's business; the monitor ticks meanwhile.
                    Await.until(
                            SELECTS + " selects and 6 counter reads",
                            Duration.ofSeconds(120),
                            Duration.ZERO,
                            () -> {
                                ps.setInt(1, 1 + selects.get() % 1000);
                                try (ResultSet rs = ps.executeQuery()) {
                                    assertTrue(rs.next());
                                }
                                return new Load(selects.incrementAndGet(), seen.size());
                            },
                            l -> l.selects() >= SELECTS && l.counterReads() >= 6);
                }
                loadEnd = System.currentTimeMillis();
                phase.set(-1);
                awaitReads(seen, seen.size() + 1);
            }
            double after = server.snapshot().get(COUNTER);

            MonitorCsv table = new MonitorCsv(csv);
            assertEquals(List.of("time_ms", "interval_ms", "phase", "source"), table.header.subList(0, 4));
            assertTrue(table.header.contains("db." + COUNTER));
            assertTrue(table.header.contains("proc.cpu_pct"));
            // The first read is the baseline; each later one (every tick, and the last at close) ends a row.
            assertEquals(seen.size() - 1, table.rows.size(), "rows for " + seen.size() + " counter reads");
            long previous = Long.MIN_VALUE;
            double sum = 0;
            double maxServerCpu = 0;
            for (Map<String, String> row : table.rows) {
                long t = Long.parseLong(row.get("time_ms"));
                assertEquals(0, t % INTERVAL, "aligned: " + t);
                assertTrue(t > previous, "one row per window, in order");
                assertTrue(t >= start - INTERVAL && t <= System.currentTimeMillis());
                assertEquals("local", row.get("source"));
                previous = t;
                double delta = MonitorCsv.num(row, "db." + COUNTER);
                assertTrue(!Double.isNaN(delta), "every row has the counter: " + row);
                sum += delta;
                if (t >= loadStart && t + INTERVAL <= loadEnd) {
                    assertEquals("0", row.get("phase"), "rows inside the load are in phase 0");
                }
                double cpu = MonitorCsv.num(row, "proc.cpu_pct");
                maxServerCpu = Double.isNaN(cpu) ? maxServerCpu : Math.max(maxServerCpu, cpu);
            }
            double truth = after - before;
            assertTrue(truth > selects.get(), "each point select reads at least one page: " + truth);
            // The rows add up to the difference between the first and the last value the monitor read, exactly
            // (the server's own background page reads are in both).
            assertEquals(seen.get(seen.size() - 1) - seen.get(0), sum, "rows sum to the counter's own difference");
            assertTrue(sum <= truth, "within the server's total over a longer span: " + sum + " of " + truth);
            // Serving thousands of queries costs mariadbd many 10 ms ticks, however slowly the box ran them.
            assertTrue(maxServerCpu > 0, "mariadbd's cpu in no row");
        }
    }
}
