package org.ivsbench.db.jdbc;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.ivsbench.db.ExtendMethod;
import org.ivsbench.db.Session;
import org.ivsbench.db.TableSpec;
import org.ivsbench.db.Target;
import org.ivsbench.db.Targets;
import org.ivsbench.op.OpResult;
import org.ivsbench.op.Outcome;
import org.ivsbench.testsupport.TestServers;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The two client extends on the private MariaDB: the plain one (the paper's binding) is a read and a replace,
 * two statements without a transaction; the locked one wraps them in BEGIN ... SELECT FOR UPDATE ... COMMIT.
 * Both append, skip at the cap and report a missing key the same way.
 */
class ClientExtendMariaDbTest {
    private static final TableSpec TABLE = new TableSpec("ext_t", "K", List.of("F0"), 1_000, "InnoDB");
    private static final int EXTENDS = 5;

    /** The server's statement counters (all sessions): what reached it, by kind. */
    private static Map<String, Long> statements() throws Exception {
        Map<String, Long> m = new HashMap<>();
        try (Connection c = DriverManager.getConnection(
                        TestServers.mariadbUrl(), TestServers.mariadbUser(), TestServers.mariadbPassword());
                ResultSet rs = c.createStatement()
                        .executeQuery("SHOW GLOBAL STATUS WHERE Variable_name IN"
                                + " ('Com_select', 'Com_update', 'Com_begin', 'Com_commit')")) {
            while (rs.next()) {
                m.put(rs.getString(1), rs.getLong(2));
            }
        }
        return m;
    }

    private static Map<String, Long> delta(Map<String, Long> before, Map<String, Long> after) {
        Map<String, Long> d = new HashMap<>();
        after.forEach((k, v) -> d.put(k, v - before.getOrDefault(k, 0L)));
        return d;
    }

    /** Runs {@link #EXTENDS} extends of 100 bytes; returns the statement counters' deltas. */
    private static Map<String, Long> extendsWith(ExtendMethod method) throws Exception {
        try (Target target = Targets.open(TestServers.mariadb())) {
            target.createTable(TABLE);
            try (Session s = target.openSession()) {
                assertEquals(
                        Outcome.OK, s.insert("ext_t", "k", Map.of("F0", "a")).outcome());
                Map<String, Long> before = statements();
                for (int i = 0; i < EXTENDS; i++) {
                    OpResult r = s.extend("ext_t", "k", "F0", "x".repeat(100), 1_000, method);
                    assertEquals(Outcome.OK, r.outcome(), method + " " + r.reason());
                    assertEquals(1 + 100L * i, r.bytesRead(), "the old value came to the client");
                    assertEquals(1 + 100L * (i + 1), r.bytesWritten(), "the grown value went back");
                }
                Map<String, Long> d = delta(before, statements());
                // the cap: 501 + 500 > 1,000 is a skip that writes nothing; a missing key is not found
                OpResult capped = s.extend("ext_t", "k", "F0", "y".repeat(500), 1_000, method);
                assertEquals(Outcome.SKIPPED, capped.outcome());
                assertEquals("cap", capped.reason());
                OpResult missing = s.extend("ext_t", "nobody", "F0", "y", 1_000, method);
                assertEquals(Outcome.ABORTED, missing.outcome());
                Map<String, String> out = new HashMap<>();
                assertEquals(Outcome.OK, s.read("ext_t", "k", null, out).outcome(), "no transaction left open");
                assertEquals("a" + "x".repeat(100 * EXTENDS), out.get("F0"));
                return d;
            } finally {
                target.dropTable("ext_t");
            }
        }
    }

    @Test
    void thePlainExtendIsAReadAndAReplaceWithoutATransaction() throws Exception {
        Map<String, Long> d = extendsWith(ExtendMethod.CLIENT_PLAIN);
        assertEquals(EXTENDS, d.get("Com_select"), d.toString());
        assertEquals(EXTENDS, d.get("Com_update"), d.toString());
        assertEquals(0, d.get("Com_begin"), d.toString());
        assertEquals(0, d.get("Com_commit"), d.toString());
    }

    @Test
    void theLockedExtendWrapsThemInATransaction() throws Exception {
        Map<String, Long> d = extendsWith(ExtendMethod.CLIENT);
        assertEquals(EXTENDS, d.get("Com_select"), d.toString());
        assertEquals(EXTENDS, d.get("Com_update"), d.toString());
        assertEquals(EXTENDS, d.get("Com_begin"), d.toString());
        assertEquals(EXTENDS, d.get("Com_commit"), d.toString());
    }
}
