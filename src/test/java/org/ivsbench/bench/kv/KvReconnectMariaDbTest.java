package org.ivsbench.bench.kv;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import org.ivsbench.bench.LoadProgress;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.TargetConfig;
import org.ivsbench.config.TransactionTypeConfig;
import org.ivsbench.db.Target;
import org.ivsbench.db.Targets;
import org.ivsbench.op.OpResult;
import org.ivsbench.op.Outcome;
import org.ivsbench.testsupport.TestServers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The skeleton's one behaviour after a lost connection, on a real one (KILL CONNECTION on the private MariaDB) and
 * without reconnectOnConnectionFailure: the operation that found it is ERROR "connection lost" and the terminal
 * does not reconnect inside it; the reopen happens in beforeOperation, before the next operation, which then works.
 */
class KvReconnectMariaDbTest {

    private static Connection root() throws Exception {
        return DriverManager.getConnection(
                TestServers.mariadbUrl(), TestServers.mariadbUser(), TestServers.mariadbPassword());
    }

    /** The ids of the test user's connections to the test database, except the asking one. */
    private static Set<Long> connections(Statement st) throws Exception {
        Set<Long> ids = new HashSet<>();
        try (ResultSet rs = st.executeQuery("SELECT ID FROM information_schema.PROCESSLIST WHERE USER = '"
                + TestServers.mariadbUser() + "' AND ID <> CONNECTION_ID() AND DB = DATABASE()")) {
            while (rs.next()) {
                ids.add(rs.getLong(1));
            }
        }
        return ids;
    }

    private static Set<Long> newOnes(Set<Long> now, Set<Long> before) {
        Set<Long> added = new HashSet<>(now);
        added.removeAll(before);
        return added;
    }

    @Test
    void aLostConnectionFailsOneOperationAndIsReopenedBeforeTheNext() throws Exception {
        TargetConfig mariadb = TestServers.mariadb(); // reconnectOnConnectionFailure off
        BenchmarkConfig config = BenchmarkConfig.builder(mariadb)
                .transactionTypes(
                        List.of(new TransactionTypeConfig("Get", 0, 0), new TransactionTypeConfig("Put", 0, 0)))
                .scaleFactor(0.05)
                .parameters(Map.of("valuesize", "8"))
                .build();
        KvModule module = new KvModule();
        try (Target target = Targets.open(mariadb);
                Connection killer = root();
                Statement st = killer.createStatement()) {
            module.create(config, target);
            module.load(config, target, LoadProgress.NONE);
            Set<Long> before = connections(st);
            try (KvTerminal terminal = new KvTerminal(config, target, 0)) {
                terminal.startPhase(null, new SplittableRandom(3));
                assertTrue(terminal.beforeOperation(() -> true));
                assertEquals(Outcome.OK, terminal.execute(0).outcome());
                Set<Long> first = newOnes(connections(st), before);
                assertEquals(1, first.size(), "the terminal's session: " + first);
                st.execute("KILL CONNECTION " + first.iterator().next());
                Set<Long> known = new HashSet<>(before);
                known.addAll(first); // the killed one may linger a moment in the process list

                OpResult lost = terminal.execute(1);
                assertEquals(Outcome.ERROR, lost.outcome());
                assertEquals("connection lost", lost.reason());
                assertEquals(
                        Set.of(), newOnes(connections(st), known), "no new connection inside the failed operation");

                assertTrue(terminal.beforeOperation(() -> true));
                Set<Long> second = newOnes(connections(st), known);
                assertEquals(1, second.size(), "a new connection, opened before the next operation: " + second);
                assertEquals(Outcome.OK, terminal.execute(1).outcome());
                assertEquals(Outcome.OK, terminal.execute(0).outcome());
            }
            module.clear(config, target);
        }
    }
}
