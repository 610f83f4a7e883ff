package org.ivsbench.db.jdbc;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.ivsbench.db.CounterKind;
import org.ivsbench.db.ExtendMethod;
import org.ivsbench.db.ReconnectingSession;
import org.ivsbench.db.Record;
import org.ivsbench.db.Session;
import org.ivsbench.db.TableSpec;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;
import org.ivsbench.db.Targets;
import org.ivsbench.op.OpResult;
import org.ivsbench.op.Outcome;
import org.ivsbench.testsupport.TestServers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The MariaDB dialect against the private server: limits, counters, databases, lost connections. */
class MariaDbTargetIntegrationTest {
    private static final TableSpec TABLE = new TableSpec("jdbc_t", "K", List.of("F0", "F1"), 10_000_000, "InnoDB");

    private static Connection root() throws Exception {
        return DriverManager.getConnection(
                TestServers.mariadbUrl(), TestServers.mariadbUser(), TestServers.mariadbPassword());
    }

    @Test
    void valueOverMaxAllowedPacketIsAnErrorOutcomeAndTheSessionGoesOn() throws Exception {
        long original;
        try (Connection c = root();
                Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery("SELECT @@GLOBAL.max_allowed_packet")) {
                rs.next();
                original = rs.getLong(1);
            }
            st.execute("SET GLOBAL max_allowed_packet = 1048576");
        }
        try (Target target = Targets.open(TestServers.mariadb())) {
            target.createTable(TABLE);
            try (Session s = target.openSession()) {
                assertEquals(
                        Outcome.OK,
                        s.insert("jdbc_t", "k1", Map.of("F0", "a", "F1", "b")).outcome());
                OpResult tooBig = s.update("jdbc_t", "k1", Map.of("F0", "x".repeat(2_000_000)));
                assertEquals(Outcome.ERROR, tooBig.outcome());
                assertEquals("value exceeds max_allowed_packet", tooBig.reason());
                OpResult tooBigClient =
                        s.extend("jdbc_t", "k1", "F1", "y".repeat(1_100_000), 10_000_000, ExtendMethod.CLIENT);
                assertEquals("value exceeds max_allowed_packet", tooBigClient.reason());
                // Server-side: each statement is small, but the CONCAT result passes the limit. Strict
                // sql_mode must make that an error, never a NULL written back (data loss).
                assertEquals(
                        Outcome.OK,
                        s.update("jdbc_t", "k1", Map.of("F0", "z".repeat(700_000)))
                                .outcome());
                OpResult concat = s.extend("jdbc_t", "k1", "F0", "w".repeat(400_000), 10_000_000, ExtendMethod.SERVER);
                assertEquals(Outcome.ERROR, concat.outcome(), String.valueOf(concat.reason()));
                assertEquals("value exceeds max_allowed_packet", concat.reason());
                Map<String, String> out = new HashMap<>();
                assertEquals(
                        Outcome.OK,
                        s.read("jdbc_t", "k1", List.of("F0", "F1"), out).outcome(),
                        "the session still works");
                assertEquals(700_000, out.get("F0").length(), "nothing was lost or truncated");
                assertEquals("b", out.get("F1"));
            }
            target.dropTable("jdbc_t");
        } finally {
            try (Connection c = root();
                    Statement st = c.createStatement()) {
                st.execute("SET GLOBAL max_allowed_packet = " + original);
            }
        }
    }

    @Test
    void killedConnectionIsReportedOnceAndTheSessionReopens() throws Exception {
        try (Target target = Targets.open(TestServers.mariadb())) {
            target.createTable(TABLE);
            try (Session s = new ReconnectingSession(target, target.openSession(), Duration.ofSeconds(10))) {
                assertEquals(
                        Outcome.OK,
                        s.insert("jdbc_t", "k1", Map.of("F0", "a", "F1", "b")).outcome());
                killOtherConnections();
                OpResult lost = s.read("jdbc_t", "k1", null, new HashMap<>());
                assertEquals(Outcome.ERROR, lost.outcome());
                assertEquals("connection lost", lost.reason());
                Map<String, String> out = new HashMap<>();
                assertEquals(Outcome.OK, s.read("jdbc_t", "k1", null, out).outcome());
                assertEquals(Map.of("F0", "a", "F1", "b"), out);
            }
            try (Session plain = target.openSession()) {
                killOtherConnections();
                TargetException e =
                        assertThrows(TargetException.class, () -> plain.read("jdbc_t", "k1", null, new HashMap<>()));
                assertTrue(e.connectionLost(), e.getMessage());
            }
            target.dropTable("jdbc_t");
        }
    }

    private static void killOtherConnections() throws Exception {
        try (Connection c = root();
                Statement st = c.createStatement()) {
            List<Long> ids = new ArrayList<>();
            try (ResultSet rs = st.executeQuery("SELECT ID FROM information_schema.PROCESSLIST WHERE USER = '"
                    + TestServers.mariadbUser() + "' AND ID <> CONNECTION_ID() AND DB = DATABASE()")) {
                while (rs.next()) {
                    ids.add(rs.getLong(1));
                }
            }
            for (long id : ids) {
                st.execute("KILL CONNECTION " + id);
            }
        }
    }

    @Test
    void unknownEngineAndBadNamesFailClearly() throws Exception {
        try (Target target = Targets.open(TestServers.mariadb())) {
            TargetException engine = assertThrows(
                    TargetException.class,
                    () -> target.createTable(new TableSpec("jdbc_t", "K", List.of("F0"), 100, "NoSuchEngine")));
            assertTrue(engine.getMessage().contains("not available"), engine.getMessage());
            TargetException name = assertThrows(
                    TargetException.class,
                    () -> target.createTable(new TableSpec("t; DROP TABLE x", "K", List.of("F0"), 100, "InnoDB")));
            assertTrue(name.getMessage().contains("not a valid identifier"), name.getMessage());
            target.createTable(TABLE);
            try (Session s = target.openSession()) {
                assertThrows(TargetException.class, () -> s.read("jdbc_t", "k", List.of("F0`"), new HashMap<>()));
            }
            target.dropTable("jdbc_t");
        }
    }

    @Test
    void countersEnvironmentStreamingAndOtherDatabases() throws Exception {
        try (JdbcTarget target = (JdbcTarget) Targets.open(TestServers.mariadb())) {
            Map<String, Double> counters = target.snapshot();
            assertTrue(counters.containsKey("Com_select"));
            assertTrue(counters.containsKey("Innodb_buffer_pool_reads"));
            assertTrue((target.kindOf("Threads_connected") == CounterKind.GAUGE));
            assertTrue((target.kindOf("Innodb_buffer_pool_pages_free") == CounterKind.GAUGE));
            assertFalse((target.kindOf("Com_select") == CounterKind.GAUGE));
            assertFalse((target.kindOf("Innodb_buffer_pool_read_requests") == CounterKind.GAUGE));
            Map<String, Object> env = target.environment();
            assertTrue(env.containsKey("max_allowed_packet"), env.toString());
            assertTrue(env.containsKey("innodb_buffer_pool_size"), env.toString());
            // the connection limit a report compares the server's sessions with (docs/diagnosis.md, scenario 13)
            try (Connection c = target.connect();
                    Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery("SELECT @@GLOBAL.max_connections")) {
                assertTrue(rs.next());
                assertEquals(rs.getLong(1), env.get("max_connections"), env.toString());
            }
            assertTrue(String.valueOf(env.get("version")).startsWith("10.11"), env.toString());

            target.createDatabase("ivs_jdbc_other", true);
            try (Target other = target.withDatabase("ivs_jdbc_other")) {
                other.createTable(TABLE);
                try (Session s = other.openSession()) {
                    List<Record> batch = new ArrayList<>();
                    for (int i = 999; i >= 0; i--) {
                        Map<String, String> f = new LinkedHashMap<>();
                        f.put("F0", "v" + i);
                        f.put("F1", "w".repeat(i % 7));
                        batch.add(new Record(String.format("key%04d", i), f));
                    }
                    s.insertBatch("jdbc_t", batch);
                }
                assertEquals(1000, other.countRecords("jdbc_t"));
                List<String> keys = new ArrayList<>();
                other.forEachRecord("jdbc_t", r -> keys.add(r.key()));
                assertEquals(1000, keys.size());
                for (int i = 1; i < keys.size(); i++) {
                    assertTrue(keys.get(i - 1).compareTo(keys.get(i)) < 0, "key order");
                }
            }
            target.dropTable("jdbc_t"); // the other database's table must not be visible here
            TargetException missing = assertThrows(TargetException.class, () -> target.countRecords("jdbc_t"));
            assertTrue(missing.getMessage().contains("jdbc_t"), missing.getMessage());
            target.createDatabase("ivs_jdbc_other", true); // drops it again, empty
        }
    }

    /**
     * The monitor calls serverCounters() every interval: it must not connect each time. Connections is a
     * server-wide counter and the server is shared, so another client connecting meanwhile can raise it; the
     * best of three fresh targets is taken. A connection per call raises it by at least CALLS every time.
     */
    @Test
    void serverCountersKeepOneConnectionAndSurviveItsKill() throws Exception {
        final int calls = 25;
        long best = Long.MAX_VALUE;
        try (Connection probe = root()) {
            for (int attempt = 0; attempt < 3 && best > 1; attempt++) {
                try (JdbcTarget target = (JdbcTarget) Targets.open(TestServers.mariadb())) {
                    // Read after open(): its one connection (server limits) is closed and not counted here;
                    // the probe is the same connection throughout, so it adds nothing between the reads.
                    long before = connectionsCounter(probe);
                    for (int i = 0; i < calls; i++) {
                        assertTrue(target.snapshot().containsKey("Com_select"));
                    }
                    best = Math.min(best, connectionsCounter(probe) - before);
                }
            }
        }
        assertTrue(best <= 1, calls + " serverCounters() calls raised Connections by " + best + " (at best of 3)");

        try (JdbcTarget target = (JdbcTarget) Targets.open(TestServers.mariadb());
                Connection killer = root();
                Statement st = killer.createStatement()) {
            target.snapshot();
            Connection kept = target.counterConnection();
            long id = kept.unwrap(org.mariadb.jdbc.Connection.class).getThreadId();
            st.execute("KILL CONNECTION " + id);
            Map<String, Double> after = target.snapshot(); // must reconnect, not throw
            assertTrue(after.containsKey("Com_select"));
            Connection reopened = target.counterConnection();
            assertTrue(reopened != kept, "a new connection replaced the killed one");
            assertTrue(target.snapshot().containsKey("Com_select"));
            assertTrue(reopened == target.counterConnection(), "and is kept in turn");
            target.close();
            assertTrue(reopened.isClosed(), "close() closes the counter connection");
            assertThrows(TargetException.class, target::snapshot);
        }
    }

    private static long connectionsCounter(Connection probe) throws Exception {
        try (Statement st = probe.createStatement();
                ResultSet rs = st.executeQuery("SHOW GLOBAL STATUS LIKE 'Connections'")) {
            rs.next();
            return rs.getLong(2);
        }
    }
}
