package org.ivsbench.db.jdbc;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.ivsbench.db.CounterKind;
import org.ivsbench.db.TargetKind;
import org.ivsbench.db.TargetKinds;
import org.ivsbench.db.Targets;
import org.ivsbench.testsupport.TestServers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The monitor's default MariaDB counters, as production offers them (the kind's default list), against the
 * private MariaDB 10.11 with MyRocks: every default exists on the server, and every one reported as a
 * difference (COUNTER) is a running total, never lower in a later read, across work on both engines that
 * also lowers levels (connections closed, memtables flushed, rows deleted).
 */
class MariaDbCountersIntegrationTest {

    private static Connection connect() throws Exception {
        return DriverManager.getConnection(
                TestServers.mariadbUrl(), TestServers.mariadbUser(), TestServers.mariadbPassword());
    }

    @Test
    void everyDefaultExistsAndEveryCounterOnlyGrows() throws Exception {
        TargetKind kind = TargetKinds.of("MARIADB");
        Map<String, CounterKind> defaults = kind.defaultCounters();
        try (JdbcTarget target = (JdbcTarget) Targets.open(TestServers.mariadb())) {
            List<Connection> extra = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                extra.add(connect());
            }
            Map<String, Double> before = target.snapshot();
            for (String name : defaults.keySet()) {
                assertTrue(before.containsKey(name), "default counter " + name + " exists on the server");
                assertEquals(defaults.get(name), target.kindOf(name), name + ": the binding reports the listed kind");
            }
            List<String> rocks = before.keySet().stream()
                    .filter(n -> kind.defaultCounterPrefixes().stream().anyMatch(n::startsWith))
                    .toList();
            assertTrue(rocks.contains("Rocksdb_stall_micros"), "MyRocks counters are kept: " + rocks.size());
            for (Connection c : extra) {
                c.close();
            }
            work();
            Map<String, Double> after = target.snapshot();
            List<String> checked = new ArrayList<>(defaults.keySet());
            checked.addAll(rocks);
            for (String name : checked) {
                if (target.kindOf(name) == CounterKind.COUNTER) {
                    assertTrue(
                            after.get(name) >= before.get(name),
                            name + " is differenced but went from " + before.get(name) + " to " + after.get(name));
                }
            }
            assertTrue(after.get("Handler_write") > before.get("Handler_write"), "the work ran");
        }
    }

    /** Writes, reads and deletes on InnoDB and MyRocks; flushes MyRocks' memtables where the user may. */
    private static void work() throws Exception {
        try (Connection c = connect();
                Statement st = c.createStatement()) {
            for (String engine : List.of("InnoDB", "RocksDB")) {
                String table = "counters_it_" + engine.toLowerCase();
                st.execute("DROP TABLE IF EXISTS " + table);
                st.execute("CREATE TABLE " + table + " (k INT PRIMARY KEY, v VARCHAR(300)) ENGINE=" + engine);
                st.execute("INSERT INTO " + table + " SELECT seq, REPEAT('x', 200) FROM seq_1_to_2000");
                try (PreparedStatement ps = c.prepareStatement("SELECT v FROM " + table + " WHERE k = ?")) {
                    for (int k = 1; k <= 500; k++) {
                        ps.setInt(1, k);
                        try (ResultSet rs = ps.executeQuery()) {
                            assertTrue(rs.next());
                        }
                    }
                }
                st.execute("UPDATE " + table + " SET v = CONCAT(v, 'y') WHERE k <= 1000");
                st.execute("DELETE FROM " + table + " WHERE k > 1000");
                st.execute("DROP TABLE " + table);
            }
        }
    }
}
