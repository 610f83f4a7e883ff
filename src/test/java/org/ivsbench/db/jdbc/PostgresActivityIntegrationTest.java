package org.ivsbench.db.jdbc;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.ivsbench.db.ServerActivity;
import org.ivsbench.db.Target;
import org.ivsbench.db.Targets;
import org.ivsbench.testsupport.HeldLock;
import org.ivsbench.testsupport.TestServers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * PostgreSQL's activity snapshot on the real server: a lock held by a second connection shows with its kind in the
 * server's own terms (wait_event_type/wait_event), the waiter's blocker (pg_blocking_pids) and the holder's
 * statement and state, whatever the lock.
 */
class PostgresActivityIntegrationTest {
    private static final String T = "activity_pg";

    private static Connection direct() throws Exception {
        return DriverManager.getConnection(
                TestServers.postgresUrl(), TestServers.postgresUser(), TestServers.postgresPassword());
    }

    @BeforeAll
    static void table() throws Exception {
        try (Connection c = direct();
                Statement st = c.createStatement()) {
            st.execute("DROP TABLE IF EXISTS " + T);
            st.execute("CREATE TABLE " + T + " (ycsb_key VARCHAR(255) PRIMARY KEY, field0 TEXT)");
            st.execute("INSERT INTO " + T + " SELECT 'user' || i, 'v' FROM generate_series(1, 10) i");
        }
    }

    private static long pid(Connection c) throws Exception {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT pg_backend_pid()")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> rows(Map<String, Object> snapshot, String key) {
        return (List<Map<String, Object>>) snapshot.getOrDefault(key, List.of());
    }

    private static Map<String, Object> session(Map<String, Object> snapshot, long pid) {
        return rows(snapshot, "sessions").stream()
                .filter(s -> ((Number) s.get("pid")).longValue() == pid)
                .findFirst()
                .orElseThrow(() -> new AssertionError("pid " + pid + " not in " + snapshot));
    }

    private static boolean blockedBy(Map<String, Object> snapshot, long waiter, long holder) {
        return rows(snapshot, "sessions").stream()
                .anyMatch(s -> ((Number) s.get("pid")).longValue() == waiter
                        && ((List<?>) s.get("blockedBy")).contains(holder));
    }

    @Test
    void aTableLockHeldBySecondConnectionShowsWithItsHolder() throws Exception {
        try (Target target = Targets.open(TestServers.postgres());
                Connection holder = direct();
                Connection waiter = direct()) {
            ServerActivity activity = target.capability(ServerActivity.class).orElseThrow();
            long holderPid = pid(holder);
            long waiterPid = pid(waiter);
            holder.setAutoCommit(false);
            try (Statement st = holder.createStatement()) {
                st.execute("LOCK TABLE " + T + " IN ACCESS EXCLUSIVE MODE");
            }
            Map<String, Object> snap;
            try {
                snap = HeldLock.snapshotWhile(
                        activity, waiter, "SELECT count(*) FROM " + T, s -> blockedBy(s, waiterPid, holderPid));
            } finally {
                HeldLock.release(holder);
            }
            HeldLock.record("postgres-lock-table-access-exclusive", snap);
            Map<String, Object> w = session(snap, waiterPid);
            assertEquals("Lock", w.get("waitEventType"), w.toString());
            assertEquals("relation", w.get("waitEvent"), w.toString());
            assertEquals("SELECT count(*) FROM " + T, w.get("query"));
            Map<String, Object> h = session(snap, holderPid);
            assertEquals("idle in transaction", h.get("state"), h.toString());
            assertEquals("LOCK TABLE " + T + " IN ACCESS EXCLUSIVE MODE", h.get("query"));
            assertTrue(((Number) h.get("xactSeconds")).longValue() >= 0, h.toString());
            assertTrue(
                    rows(snap, "locks").stream()
                            .anyMatch(l -> ((Number) l.get("pid")).longValue() == holderPid
                                    && "AccessExclusiveLock".equals(l.get("mode"))
                                    && T.equals(l.get("relation"))
                                    && Boolean.TRUE.equals(l.get("granted"))),
                    snap.toString());
            assertTrue(
                    rows(snap, "locks").stream()
                            .anyMatch(l -> ((Number) l.get("pid")).longValue() == waiterPid
                                    && Boolean.FALSE.equals(l.get("granted"))),
                    snap.toString());
        }
    }

    @Test
    void aRowLockHeldBySecondConnectionShowsWithItsHolder() throws Exception {
        try (Target target = Targets.open(TestServers.postgres());
                Connection holder = direct();
                Connection waiter = direct()) {
            ServerActivity activity = target.capability(ServerActivity.class).orElseThrow();
            long holderPid = pid(holder);
            long waiterPid = pid(waiter);
            holder.setAutoCommit(false);
            try (Statement st = holder.createStatement();
                    ResultSet rs = st.executeQuery("SELECT * FROM " + T + " WHERE ycsb_key = 'user1' FOR UPDATE")) {
                assertTrue(rs.next());
            }
            Map<String, Object> snap;
            try {
                snap = HeldLock.snapshotWhile(
                        activity,
                        waiter,
                        "UPDATE " + T + " SET field0 = field0 || 'x' WHERE ycsb_key = 'user1'",
                        s -> blockedBy(s, waiterPid, holderPid));
            } finally {
                HeldLock.release(holder);
            }
            HeldLock.record("postgres-row-lock", snap);
            Map<String, Object> w = session(snap, waiterPid);
            assertEquals("Lock", w.get("waitEventType"), w.toString());
            // the waiter waits for the holder's transaction to end: transactionid (tuple when a third one queues)
            assertTrue(List.of("transactionid", "tuple").contains(w.get("waitEvent")), w.toString());
            Map<String, Object> h = session(snap, holderPid);
            assertEquals("idle in transaction", h.get("state"), h.toString());
            assertTrue(String.valueOf(h.get("query")).endsWith("FOR UPDATE"), h.toString());
        }
    }
}
