package org.ivsbench.db.jdbc;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
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
}
