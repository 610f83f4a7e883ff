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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.ivsbench.config.TargetConfig;
import org.ivsbench.db.CounterKind;
import org.ivsbench.db.DatabaseAdmin;
import org.ivsbench.db.ExtendMethod;
import org.ivsbench.db.ReconnectingSession;
import org.ivsbench.db.Record;
import org.ivsbench.db.ServerInfo;
import org.ivsbench.db.Session;
import org.ivsbench.db.StatusCounters;
import org.ivsbench.db.TableSpec;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;
import org.ivsbench.db.Targets;
import org.ivsbench.op.OpResult;
import org.ivsbench.op.Outcome;
import org.ivsbench.testsupport.Await;
import org.ivsbench.testsupport.TestServers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The PostgreSQL dialect against the private server, what is its own: integer keys, NULL fields, serialization
 * failures, lost connections, counters, databases. The record operations are SessionContractTest's.
 */
class PostgresTargetIntegrationTest {
    private static final String T = "pg_t";
    private static final TableSpec TABLE = new TableSpec(T, "YCSB_KEY", List.of("FIELD0", "FIELD1"), 1_000, null);

    private static Connection direct() throws Exception {
        return DriverManager.getConnection(
                TestServers.postgresUrl(), TestServers.postgresUser(), TestServers.postgresPassword());
    }

    private static Map<String, String> fields(String f0, String f1) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("FIELD0", f0);
        m.put("FIELD1", f1);
        return m;
    }

    /** BenchBase's YCSB table: an integer key (bound as a string, converted by the server) and VARCHAR fields. */
    @Test
    void integerKeysAndBoundedFields() throws Exception {
        TableSpec ycsb =
                new TableSpec("pg_int", "ycsb_key", List.of("field1"), 10, null, TableSpec.KeyType.INTEGER, true);
        try (Target target = Targets.open(TestServers.postgres())) {
            target.createTable(ycsb);
            try (Session s = target.openSession()) {
                for (int k : new int[] {10, 9, 100}) {
                    assertEquals(
                            Outcome.OK,
                            s.insert("pg_int", Integer.toString(k), Map.of("field1", "v" + k))
                                    .outcome());
                }
                List<Map<String, String>> rows = new ArrayList<>();
                assertEquals(Outcome.OK, s.scan("pg_int", "9", 3, null, rows).outcome());
                assertEquals(
                        List.of(Map.of("field1", "v9"), Map.of("field1", "v10"), Map.of("field1", "v100")),
                        rows,
                        "numeric order, not text order");
                assertEquals(
                        Outcome.OK,
                        s.update("pg_int", "10", Map.of("field1", "x")).outcome());
                assertEquals(Outcome.OK, s.delete("pg_int", "100").outcome());
                assertEquals(
                        Outcome.ABORTED,
                        s.read("pg_int", "100", null, new HashMap<>()).outcome());
                // VARCHAR(10) refuses 11 characters: a statement failure, thrown as the binding does for any.
                TargetException tooLong = assertThrows(
                        TargetException.class, () -> s.update("pg_int", "9", Map.of("field1", "y".repeat(11))));
                assertTrue(tooLong.getMessage().contains("too long"), tooLong.getMessage());
            }
            target.dropTable("pg_int");
        }
    }

    /**
     * What the shared contract (SessionContractTest) does not show on PostgreSQL: a NULL field grows from empty, and
     * the server's own byte length agrees with the guard's at the cap.
     */
    @ParameterizedTest
    @EnumSource(ExtendMethod.class)
    void aNullFieldGrowsFromEmptyAndTheServerAgreesOnTheLength(ExtendMethod method) throws Exception {
        try (Target target = Targets.open(TestServers.postgres())) {
            target.createTable(TABLE);
            try (Session s = target.openSession()) {
                s.insert(T, "k", fields("x".repeat(600), null));
                assertEquals(
                        Outcome.OK,
                        s.extend(T, "k", "FIELD0", "y".repeat(400), 1_000, method)
                                .outcome());
                assertEquals(
                        Outcome.OK,
                        s.extend(T, "k", "FIELD1", "z".repeat(10), 1_000, method)
                                .outcome(),
                        "a NULL field counts as empty");
                Map<String, String> out = new HashMap<>();
                s.read(T, "k", null, out);
                assertEquals("z".repeat(10), out.get("FIELD1"));
                assertEquals(Outcome.OK, s.read(T, "k", null, out).outcome(), "no transaction left open");
            }
            // The server's own length agrees with the guard's bytes.
            try (Connection c = direct();
                    Statement st = c.createStatement();
                    ResultSet rs =
                            st.executeQuery("SELECT octet_length(\"FIELD0\") FROM pg_t WHERE \"YCSB_KEY\" = 'k'")) {
                rs.next();
                assertEquals(1_000, rs.getInt(1));
            }
            target.dropTable(T);
        }
    }

    /**
     * At REPEATABLE READ a client extend that waited for another's row lock cannot update the row its
     * snapshot predates: PostgreSQL refuses with a serialization failure, an aborted outcome, not an error.
     */
    @Test
    void serializationFailureIsAnAbort() throws Exception {
        TargetConfig rr = new TargetConfig(
                "POSTGRESQL",
                null,
                TestServers.postgresUrl(),
                TestServers.postgresUser(),
                TestServers.postgresPassword(),
                "TRANSACTION_REPEATABLE_READ",
                false,
                Map.of());
        try (Target target = Targets.open(rr)) {
            target.createTable(TABLE);
            try (Session s = target.openSession();
                    Connection holder = direct();
                    Statement st = holder.createStatement()) {
                s.insert(T, "k", fields("a", "b"));
                holder.setAutoCommit(false);
                st.executeQuery("SELECT 1 FROM pg_t WHERE \"YCSB_KEY\" = 'k' FOR UPDATE")
                        .close();
                CountDownLatch started = new CountDownLatch(1);
                ExecutorService one = Executors.newSingleThreadExecutor();
                Future<OpResult> waiting = one.submit(() -> {
                    started.countDown();
                    return s.extend(T, "k", "FIELD0", "x", 1_000, ExtendMethod.SERVER);
                });
                started.await();
                // The extend's snapshot is taken when its statement starts; wait until it is blocked on the lock.
                try (Connection probe = direct();
                        Statement ps = probe.createStatement()) {
                    Await.until(
                            "a backend of this database waiting for a lock (pg_stat_activity)",
                            Duration.ofSeconds(60),
                            Duration.ofMillis(10),
                            () -> {
                                if (waiting.isDone()) {
                                    throw new AssertionError("the extend ended before it waited: " + waiting.get());
                                }
                                try (ResultSet rs = ps.executeQuery("SELECT count(*) FROM pg_stat_activity"
                                        + " WHERE wait_event_type = 'Lock' AND datname = current_database()")) {
                                    rs.next();
                                    return rs.getInt(1);
                                }
                            },
                            lockWaits -> lockWaits > 0);
                }
                st.executeUpdate("UPDATE pg_t SET \"FIELD0\" = 'changed' WHERE \"YCSB_KEY\" = 'k'");
                holder.commit();
                OpResult r = waiting.get(60, TimeUnit.SECONDS);
                one.shutdown();
                assertEquals(Outcome.ABORTED, r.outcome(), r.toString());
                assertEquals("serialization failure", r.reason());
                Map<String, String> out = new HashMap<>();
                assertEquals(Outcome.OK, s.read(T, "k", null, out).outcome(), "the session goes on");
                assertEquals("changed", out.get("FIELD0"));
            }
            target.dropTable(T);
        }
    }

    @Test
    void terminatedConnectionIsReportedOnceAndTheSessionReopens() throws Exception {
        try (Target target = Targets.open(TestServers.postgres())) {
            target.createTable(TABLE);
            try (Session s = new ReconnectingSession(target, target.openSession(), Duration.ofSeconds(10))) {
                assertEquals(Outcome.OK, s.insert(T, "k1", fields("a", "b")).outcome());
                terminateOtherConnections();
                OpResult lost = s.read(T, "k1", null, new HashMap<>());
                assertEquals(Outcome.ERROR, lost.outcome());
                assertEquals("connection lost", lost.reason());
                Map<String, String> out = new HashMap<>();
                assertEquals(Outcome.OK, s.read(T, "k1", null, out).outcome());
                assertEquals(fields("a", "b"), out);
            }
            try (Session plain = target.openSession()) {
                terminateOtherConnections();
                TargetException e =
                        assertThrows(TargetException.class, () -> plain.read(T, "k1", null, new HashMap<>()));
                assertTrue(e.connectionLost(), e.getMessage());
            }
            target.dropTable(T);
        }
    }

    private static void terminateOtherConnections() throws Exception {
        try (Connection c = direct();
                Statement st = c.createStatement()) {
            st.executeQuery("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid()"
                            + " AND datname = current_database() AND application_name = 'ivsbench'")
                    .close();
        }
    }

    @Test
    void countersEnvironmentAndOtherDatabases() throws Exception {
        try (JdbcTarget target = (JdbcTarget) Targets.open(TestServers.postgres())) {
            StatusCounters counters = target.capability(StatusCounters.class).orElseThrow();
            Map<String, Double> snapshot = counters.snapshot();
            for (String name : List.of(
                    "pg_stat_database.xact_commit",
                    "pg_stat_database.tup_fetched",
                    "pg_stat_database.blks_hit",
                    "pg_stat_database.deadlocks",
                    "pg_stat_database.temp_bytes",
                    "pg_stat_bgwriter.buffers_checkpoint",
                    "pg_stat_bgwriter.buffers_backend",
                    "pg_database_size",
                    "pg_stat_statements.calls")) {
                assertTrue(snapshot.containsKey(name), name + " in " + snapshot.keySet());
            }
            assertEquals(CounterKind.GAUGE, counters.kindOf("pg_stat_database.numbackends"));
            assertEquals(CounterKind.GAUGE, counters.kindOf("pg_database_size"));
            assertEquals(CounterKind.COUNTER, counters.kindOf("pg_stat_database.xact_commit"));
            assertEquals(CounterKind.COUNTER, counters.kindOf("pg_stat_statements.calls_select"));
            for (Map.Entry<String, CounterKind> d :
                    target.kind().defaultCounters().entrySet()) {
                assertTrue(snapshot.containsKey(d.getKey()), "default counter " + d.getKey() + " is reported");
                assertEquals(d.getValue(), counters.kindOf(d.getKey()), d.getKey());
            }

            Map<String, Object> env =
                    target.capability(ServerInfo.class).orElseThrow().environment();
            assertEquals("PostgreSQL", env.get("product"));
            assertTrue(String.valueOf(env.get("version")).startsWith("15"), env.toString());
            assertEquals("128MB", env.get("shared_buffers"), env.toString());
            assertEquals("read committed", env.get("default_transaction_isolation"));
            // the connection limit and the part of it kept for superusers (docs/diagnosis.md, the connection rules)
            assertEquals("100", env.get("max_connections"), env.toString());
            assertEquals("3", env.get("superuser_reserved_connections"), env.toString());
            assertEquals(Boolean.TRUE, env.get("pg_stat_statements"));

            DatabaseAdmin admin = target.capability(DatabaseAdmin.class).orElseThrow();
            admin.createDatabase("ivs_pg_other", true);
            admin.createDatabase("ivs_pg_other", false); // exists already: nothing happens
            try (Target other = admin.withDatabase("ivs_pg_other")) {
                other.createTable(TABLE);
                try (Session s = other.openSession()) {
                    List<Record> batch = new ArrayList<>();
                    for (int i = 999; i >= 0; i--) {
                        batch.add(new Record(String.format("key%04d", i), fields("v" + i, "w".repeat(i % 7))));
                    }
                    s.insertBatch(T, batch);
                }
                assertEquals(1000, other.countRecords(T));
                List<String> keys = new ArrayList<>();
                other.forEachRecord(T, r -> keys.add(r.key()));
                assertEquals(1000, keys.size());
                for (int i = 1; i < keys.size(); i++) {
                    assertTrue(keys.get(i - 1).compareTo(keys.get(i)) < 0, "key order");
                }
                target.dropTable(T); // the other database's table must not be visible here
                assertThrows(TargetException.class, () -> target.countRecords(T));
                assertEquals(1000, other.countRecords(T));
                // Dropped even while a session of the other target is still connected to it.
                try (Session open = other.openSession()) {
                    open.read(T, "key0001", null, new HashMap<>());
                    admin.dropDatabase("ivs_pg_other");
                }
            }
            try (Connection c = direct();
                    Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery("SELECT count(*) FROM pg_database WHERE datname = 'ivs_pg_other'")) {
                rs.next();
                assertEquals(0, rs.getInt(1));
            }
        }
    }

    /** A database without the extension: its counters are simply not there, the others are. */
    @Test
    void withoutPgStatStatementsItsCountersAreLeftOut() throws Exception {
        try (JdbcTarget target = (JdbcTarget) Targets.open(TestServers.postgres())) {
            DatabaseAdmin admin = target.capability(DatabaseAdmin.class).orElseThrow();
            admin.dropDatabase("ivs_pg_nostat");
            try (Connection c = direct();
                    Statement st = c.createStatement()) {
                st.execute("CREATE DATABASE ivs_pg_nostat TEMPLATE template0"); // template1 has the extension
            }
            try (Target other = admin.withDatabase("ivs_pg_nostat")) {
                Map<String, Double> snapshot =
                        other.capability(StatusCounters.class).orElseThrow().snapshot();
                assertTrue(
                        snapshot.containsKey("pg_stat_database.xact_commit"),
                        snapshot.keySet().toString());
                assertTrue(
                        snapshot.keySet().stream().noneMatch(k -> k.startsWith("pg_stat_statements.")),
                        snapshot.keySet().toString());
            }
            admin.dropDatabase("ivs_pg_nostat");
        }
    }

    /**
     * The live and dead tuples of the database's tables (summed): 100 rows updated once while another session's
     * REPEATABLE READ snapshot (taken before the update) is open are 100 dead tuples nobody may remove yet - the
     * level the analyzer reads as vacuum held back by a long transaction. A database of its own holds only this
     * table; its autovacuum is off, and the writer forces its statistics out before the counters are read.
     */
    @Test
    void deadTuplesAnOpenSnapshotKeepsAreCounted() throws Exception {
        try (JdbcTarget target = (JdbcTarget) Targets.open(TestServers.postgres())) {
            DatabaseAdmin admin = target.capability(DatabaseAdmin.class).orElseThrow();
            admin.dropDatabase("ivs_pg_dead");
            admin.createDatabase("ivs_pg_dead", false);
            String url = TestServers.postgresUrl().replaceFirst("/[^/?]*(\\?.*)?$", "/ivs_pg_dead$1");
            try (Target other = admin.withDatabase("ivs_pg_dead");
                    Connection old = DriverManager.getConnection(
                            url, TestServers.postgresUser(), TestServers.postgresPassword());
                    Connection writer = DriverManager.getConnection(
                            url, TestServers.postgresUser(), TestServers.postgresPassword());
                    Statement os = old.createStatement();
                    Statement ws = writer.createStatement()) {
                ws.execute("CREATE TABLE pg_dead (k int PRIMARY KEY, v int) WITH (autovacuum_enabled = off)");
                ws.execute("INSERT INTO pg_dead SELECT g, 0 FROM generate_series(1, 100) g");
                old.setAutoCommit(false);
                os.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
                os.executeQuery("SELECT count(*) FROM pg_dead").close();
                ws.execute("UPDATE pg_dead SET v = v + 1");
                ws.execute("SELECT pg_stat_force_next_flush()"); // flushed as the writer goes idle
                StatusCounters counters = other.capability(StatusCounters.class).orElseThrow();
                Map<String, Double> snapshot = counters.snapshot();
                assertEquals(100.0, snapshot.get("pg_stat_user_tables.n_dead_tup"), snapshot.toString());
                assertEquals(100.0, snapshot.get("pg_stat_user_tables.n_live_tup"), snapshot.toString());
                assertEquals(CounterKind.GAUGE, counters.kindOf("pg_stat_user_tables.n_dead_tup"));
                old.rollback();
            }
            admin.dropDatabase("ivs_pg_dead");
        }
    }

    @Test
    void engineAndBadNamesFailClearly() throws Exception {
        try (Target target = Targets.open(TestServers.postgres())) {
            TargetException engine = assertThrows(
                    TargetException.class,
                    () -> target.createTable(new TableSpec(T, "K", List.of("F0"), 100, "InnoDB")));
            assertTrue(engine.getMessage().contains("leave the engine out"), engine.getMessage());
            TargetException name = assertThrows(
                    TargetException.class,
                    () -> target.createTable(new TableSpec("t; DROP TABLE x", "K", List.of("F0"), 100, null)));
            assertTrue(name.getMessage().contains("not a valid identifier"), name.getMessage());
            DatabaseAdmin admin = target.capability(DatabaseAdmin.class).orElseThrow();
            assertThrows(TargetException.class, () -> admin.createDatabase("x\"; DROP", false));
        }
    }
}
