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
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * MariaDB's activity snapshot on the real server (scripts/mariadb.sh loads metadata_lock_info): a table lock held
 * by a second connection shows as the waiter's process-list state and the holder's metadata lock, by the
 * holder's CONNECTION_ID(); so does a lock kind nothing in ivsbench names (FLUSH TABLES WITH READ LOCK).
 */
class MariaDbActivityIntegrationTest {
    private static final String T = "activity_mdl";

    private static Connection direct() throws Exception {
        return DriverManager.getConnection(
                TestServers.mariadbUrl(), TestServers.mariadbUser(), TestServers.mariadbPassword());
    }

    @BeforeAll
    static void table() throws Exception {
        try (Connection c = direct();
                Statement st = c.createStatement()) {
            st.execute("DROP TABLE IF EXISTS " + T);
            st.execute("CREATE TABLE " + T + " (YCSB_KEY VARCHAR(255) PRIMARY KEY, FIELD0 LONGTEXT) ENGINE=InnoDB");
            st.execute("INSERT INTO " + T + " VALUES ('user1', 'v'), ('user2', 'v')");
        }
    }

    private static long id(Connection c) throws Exception {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT CONNECTION_ID()")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> rows(Map<String, Object> snapshot, String key) {
        return (List<Map<String, Object>>) snapshot.getOrDefault(key, List.of());
    }

    private static Map<String, Object> process(Map<String, Object> snapshot, long id) {
        return rows(snapshot, "processlist").stream()
                .filter(p -> ((Number) p.get("id")).longValue() == id)
                .findFirst()
                .orElse(Map.of());
    }

    private static boolean waiting(Map<String, Object> snapshot, long id) {
        return String.valueOf(process(snapshot, id).get("state")).startsWith("Waiting for");
    }

    private Map<String, Object> heldBy(String lock, String unlock, String waitingSql, String name) throws Exception {
        try (Target target = Targets.open(TestServers.mariadb());
                Connection holder = direct();
                Connection waiter = direct()) {
            ServerActivity activity = target.capability(ServerActivity.class).orElseThrow();
            long holderId = id(holder);
            long waiterId = id(waiter);
            try (Statement st = holder.createStatement()) {
                st.execute(lock);
            }
            Map<String, Object> snap;
            try {
                snap = HeldLock.snapshotWhile(activity, waiter, waitingSql, s -> waiting(s, waiterId));
            } finally {
                try (Statement st = holder.createStatement()) {
                    st.execute(unlock);
                }
            }
            HeldLock.record(name, snap);
            assertNull(snap.get("metadataLocksNote"), snap.toString());
            assertEquals(waitingSql, process(snap, waiterId).get("info"));
            snap.put("holderId", holderId); // for the caller's assertions only, not recorded
            snap.put("waiterId", waiterId);
            return snap;
        }
    }

    @Test
    void lockTablesWriteShowsAsAMetadataLockWaitWithItsHolder() throws Exception {
        Map<String, Object> snap = heldBy(
                "LOCK TABLES " + T + " WRITE", "UNLOCK TABLES", "SELECT COUNT(*) FROM " + T, "mariadb-lock-tables");
        long holder = ((Number) snap.get("holderId")).longValue();
        long waiter = ((Number) snap.get("waiterId")).longValue();
        assertEquals("Waiting for table metadata lock", process(snap, waiter).get("state"));
        assertTrue(
                rows(snap, "metadataLocks").stream()
                        .anyMatch(l -> ((Number) l.get("threadId")).longValue() == holder
                                && "MDL_SHARED_NO_READ_WRITE".equals(l.get("lockMode"))
                                && T.equals(l.get("table"))),
                snap.toString());
    }

    @Test
    void aGlobalReadLockShowsTheSameWayWithItsHolder() throws Exception {
        Map<String, Object> snap = heldBy(
                "FLUSH TABLES WITH READ LOCK",
                "UNLOCK TABLES",
                "UPDATE " + T + " SET FIELD0 = 'w' WHERE YCSB_KEY = 'user1'",
                "mariadb-flush-tables-with-read-lock");
        long holder = ((Number) snap.get("holderId")).longValue();
        long waiter = ((Number) snap.get("waiterId")).longValue();
        assertTrue(String.valueOf(process(snap, waiter).get("state")).startsWith("Waiting for"), snap.toString());
        assertTrue(
                rows(snap, "metadataLocks").stream().anyMatch(l -> ((Number) l.get("threadId")).longValue() == holder),
                snap.toString());
    }
}
