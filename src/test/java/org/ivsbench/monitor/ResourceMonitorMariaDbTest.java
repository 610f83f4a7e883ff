package org.ivsbench.monitor;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.config.MonitorConfig;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetKinds;
import org.ivsbench.db.Targets;
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

    @TempDir
    Path dir;

    @Test
    void rowsAreAlignedAndCounterDeltasAddUpToTheServersOwnTotals() throws Exception {
        String url = TestServers.mariadbUrl();
        String user = TestServers.mariadbUser();
        String password = TestServers.mariadbPassword();
        String pidFile = TestServers.mariadbPidFile();
        try (Connection c = DriverManager.getConnection(url, user, password);
                Target target = Targets.open(TestServers.mariadb())) {
            CounterSource counters = CounterSource.of(target);
            try (Statement st = c.createStatement()) {
                st.execute("DROP TABLE IF EXISTS monitor_it");
                st.execute("CREATE TABLE monitor_it (k INT PRIMARY KEY, v VARCHAR(100)) ENGINE=InnoDB");
                st.execute("INSERT INTO monitor_it SELECT seq, REPEAT('x', 100) FROM seq_1_to_1000");
            }
            AtomicInteger phase = new AtomicInteger(-1);
            Path csv = dir.resolve("monitor.csv");
            MonitorConfig config = new MonitorConfig(true, INTERVAL, null, null, pidFile);

            double before = counters.snapshot().get(COUNTER);
            long start = System.currentTimeMillis();
            long loadStart;
            long loadEnd;
            int selects = 0;
            try (ResourceMonitor monitor = ResourceMonitor.start(
                    config, counters, CounterSelection.defaults(TargetKinds.of("MARIADB")), csv, phase::get)) {
                Thread.sleep(300);
                phase.set(0);
                loadStart = System.currentTimeMillis();
                try (PreparedStatement ps = c.prepareStatement("SELECT v FROM monitor_it WHERE k = ?")) {
                    while (System.currentTimeMillis() - loadStart < 3000) {
                        ps.setInt(1, 1 + selects % 1000);
                        try (ResultSet rs = ps.executeQuery()) {
                            assertTrue(rs.next());
                        }
                        selects++;
                    }
                }
                loadEnd = System.currentTimeMillis();
                phase.set(-1);
                Thread.sleep(300);
            }
            double after = counters.snapshot().get(COUNTER);
            assertTrue(selects > 1000, "load too small: " + selects);

            MonitorCsv table = new MonitorCsv(csv);
            assertEquals(List.of("time_ms", "interval_ms", "phase", "source"), table.header.subList(0, 4));
            assertTrue(table.header.contains("db." + COUNTER));
            assertTrue(table.header.contains("proc.cpu_pct"));
            assertTrue(table.rows.size() >= 14, "rows: " + table.rows.size());
            long previous = Long.MIN_VALUE;
            double sum = 0;
            double maxServerCpuInLoad = 0;
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
                    maxServerCpuInLoad = Math.max(maxServerCpuInLoad, MonitorCsv.num(row, "proc.cpu_pct"));
                }
            }
            double truth = after - before;
            assertTrue(truth > selects, "each point select reads at least one page: " + truth);
            assertEquals(truth, sum, truth * 0.05, "rows sum to the server's own difference");
            assertTrue(maxServerCpuInLoad > 0, "mariadbd worked during the load");
        }
    }
}
