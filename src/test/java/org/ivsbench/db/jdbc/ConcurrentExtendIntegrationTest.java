package org.ivsbench.db.jdbc;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import org.ivsbench.config.TargetConfig;
import org.ivsbench.db.ExtendMethod;
import org.ivsbench.db.Session;
import org.ivsbench.db.StatusCounters;
import org.ivsbench.db.TableSpec;
import org.ivsbench.db.Target;
import org.ivsbench.db.Targets;
import org.ivsbench.op.OpResult;
import org.ivsbench.op.Outcome;
import org.ivsbench.testsupport.TestServers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Several sessions extending one record at once never lose an append, with either method. */
class ConcurrentExtendIntegrationTest {
    private static final int THREADS = 4;
    private static final int EXTENDS_PER_THREAD = 50;

    static Stream<Arguments> targets() {
        return Stream.of("sqlite", "innodb", "rocksdb")
                .flatMap(t -> Stream.of(Arguments.of(t, ExtendMethod.CLIENT), Arguments.of(t, ExtendMethod.SERVER)));
    }

    private static TargetConfig config(String name) throws Exception {
        return name.equals("sqlite")
                ? TestServers.sqlite(Files.createTempDirectory("ivs-jdbc").resolve("c.db"))
                : TestServers.mariadb();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("targets")
    void noAppendIsLost(String name, ExtendMethod method) throws Exception {
        String engine = name.equals("sqlite") ? null : name.equals("rocksdb") ? "RocksDB" : "InnoDB";
        TableSpec table = new TableSpec("conc_t", "K", List.of("F0"), 10_000_000, engine);
        try (Target target = Targets.open(config(name))) {
            target.createTable(table);
            try (Session s = target.openSession()) {
                s.insert("conc_t", "hot", Map.of("F0", "start"));
            }
            ExecutorService pool = Executors.newFixedThreadPool(THREADS);
            List<Future<Integer>> results = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                results.add(pool.submit(() -> {
                    int ok = 0;
                    try (Session s = target.openSession()) {
                        for (int i = 0; i < EXTENDS_PER_THREAD; i++) {
                            OpResult r = s.extend("conc_t", "hot", "F0", "0123456789", 10_000_000, method);
                            // Under contention MariaDB may abort with a deadlock: counted, never a lost append.
                            assertTrue(r.outcome() == Outcome.OK || r.outcome() == Outcome.ABORTED, r.toString());
                            ok += r.outcome() == Outcome.OK ? 1 : 0;
                        }
                    }
                    return ok;
                }));
            }
            int ok = 0;
            for (Future<Integer> f : results) {
                ok += f.get();
            }
            pool.shutdown();
            Map<String, String> out = new HashMap<>();
            try (Session s = target.openSession()) {
                s.read("conc_t", "hot", null, out);
            }
            assertEquals(5 + 10L * ok, out.get("F0").length());
            assertTrue(ok > 0);
            target.dropTable("conc_t");
        }
    }

    @Test
    void sqliteDatabasesAreFilesNextToTheFirst() throws Exception {
        Path dir = Files.createTempDirectory("ivs-jdbc");
        try (JdbcTarget target = (JdbcTarget) Targets.open(TestServers.sqlite(dir.resolve("main.db")))) {
            target.createDatabase("other", true);
            assertTrue(Files.exists(dir.resolve("other.db")));
            try (JdbcTarget other = (JdbcTarget) target.withDatabase("other")) {
                other.createTable(new TableSpec("t", "K", List.of("F0"), 100, null));
                assertEquals(0, other.countRecords("t"));
                assertEquals("SQLite", other.environment().get("product"));
                assertTrue(other.capability(StatusCounters.class).isEmpty(), "SQLite has no server counters");
            }
        }
    }
}
