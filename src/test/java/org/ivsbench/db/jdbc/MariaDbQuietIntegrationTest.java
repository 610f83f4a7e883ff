package org.ivsbench.db.jdbc;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import org.ivsbench.config.TargetConfig;
import org.ivsbench.db.Quiescence;
import org.ivsbench.db.QuietGauge;
import org.ivsbench.db.Target;
import org.ivsbench.db.Targets;
import org.ivsbench.testsupport.TestServers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What MariaDB's quiet probe reads on the private server (InnoDB and the RocksDB engine, loaded by the script). */
class MariaDbQuietIntegrationTest {

    @Test
    void theProbeReadsInnoDbsDirtyPagesAndHistoryAndRocksDbsFlushAndCompactionState() throws Exception {
        String url = TestServers.mariadbUrl();
        double pagesTotal;
        try (Connection c = DriverManager.getConnection(url, TestServers.mariadbUser(), TestServers.mariadbPassword());
                ResultSet rs =
                        c.createStatement().executeQuery("SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_pages_total'")) {
            rs.next();
            pagesTotal = rs.getDouble(2);
        }
        TargetConfig config = new TargetConfig(
                "MARIADB", null, url, TestServers.mariadbUser(), TestServers.mariadbPassword(), null, false, Map.of());
        try (Target target = Targets.open(config);
                Quiescence.Probe probe =
                        target.capability(Quiescence.class).orElseThrow().settle("usertable")) {
            Map<String, QuietGauge> gauges = new TreeMap<>();
            for (QuietGauge g : probe.read()) {
                gauges.put(g.name(), g);
            }
            assertEquals(
                    List.of(
                            "Innodb_buffer_pool_pages_dirty",
                            "Innodb_history_list_length",
                            "rocksdb.COMPACTION_PENDING",
                            "rocksdb.MEM_TABLE_FLUSH_PENDING",
                            "rocksdb.NUM_IMMUTABLE_MEM_TABLE"),
                    List.copyOf(gauges.keySet()));
            QuietGauge dirty = gauges.get("Innodb_buffer_pool_pages_dirty");
            assertEquals(Math.floor(pagesTotal * 0.01), dirty.quietAtOrBelow(), "1% of the buffer pool");
            assertTrue(dirty.quietWhenSteady());
            assertTrue(dirty.value() >= 0 && dirty.value() <= pagesTotal, dirty.toString());
            assertEquals(0, gauges.get("rocksdb.COMPACTION_PENDING").quietAtOrBelow());
        }
    }

    @Test
    void settlingMakesInnoDbFlushItsDirtyPagesAndClosingPutsTheServersSettingBack() throws Exception {
        String url = TestServers.mariadbUrl();
        TargetConfig config = new TargetConfig(
                "MARIADB", null, url, TestServers.mariadbUser(), TestServers.mariadbPassword(), null, false, Map.of());
        try (Connection c = DriverManager.getConnection(url, TestServers.mariadbUser(), TestServers.mariadbPassword());
                Statement st = c.createStatement()) {
            String before = scalar(st, "SELECT @@GLOBAL.innodb_max_dirty_pages_pct");
            String capacity = scalar(st, "SELECT @@GLOBAL.innodb_io_capacity");
            String capacityMax = scalar(st, "SELECT @@GLOBAL.innodb_io_capacity_max");
            double pagesTotal =
                    Double.parseDouble(scalar(st, "SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_pages_total'"));
            // About 2,000 dirty 16 KiB pages: more than the 1% of the pool the probe calls flushed. Left to itself,
            // 10.11's page cleaner stops an idle server's flushing with a few percent of the pool still dirty.
            st.execute("DROP TABLE IF EXISTS quiet_dirty");
            st.execute("CREATE TABLE quiet_dirty (id INT PRIMARY KEY, v VARCHAR(2000)) ENGINE=InnoDB");
            st.execute("INSERT INTO quiet_dirty SELECT seq, REPEAT('x', 1500) FROM seq_1_to_20000");
            try (Target target = Targets.open(config)) {
                Quiescence.Probe probe =
                        target.capability(Quiescence.class).orElseThrow().settle("quiet_dirty");
                try {
                    assertEquals(0.0, Double.parseDouble(scalar(st, "SELECT @@GLOBAL.innodb_max_dirty_pages_pct")));
                    assertEquals(capacityMax, scalar(st, "SELECT @@GLOBAL.innodb_io_capacity"), "flushing at the max");
                    double limit = Math.floor(pagesTotal * 0.01);
                    double dirty = Double.MAX_VALUE;
                    // a liveness bound, not a timing check: at 0 the flush takes seconds
                    for (int i = 0; i < 240 && dirty > limit; i++) {
                        dirty = gauge(probe.read(), "Innodb_buffer_pool_pages_dirty");
                        if (dirty > limit) {
                            Thread.sleep(500);
                        }
                    }
                    assertTrue(dirty <= limit, "dirty pages " + dirty + " flushed to at most " + limit);
                } finally {
                    probe.close();
                }
            }
            assertEquals(before, scalar(st, "SELECT @@GLOBAL.innodb_max_dirty_pages_pct"), "the server's own value");
            assertEquals(capacity, scalar(st, "SELECT @@GLOBAL.innodb_io_capacity"), "the server's own value");
            st.execute("DROP TABLE quiet_dirty");
        }
    }

    private static String scalar(Statement st, String sql) throws Exception {
        try (ResultSet rs = st.executeQuery(sql)) {
            assertTrue(rs.next(), sql);
            return rs.getString(rs.getMetaData().getColumnCount());
        }
    }

    private static double gauge(List<QuietGauge> reading, String name) {
        return reading.stream()
                .filter(g -> g.name().equals(name))
                .findFirst()
                .orElseThrow()
                .value();
    }
}
