package org.ivsbench.db.cassandra;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.ivsbench.db.ExtendMethod;
import org.ivsbench.db.Record;
import org.ivsbench.db.ServerClock;
import org.ivsbench.db.Session;
import org.ivsbench.db.TableSpec;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;
import org.ivsbench.op.OpResult;
import org.ivsbench.op.Outcome;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What is Cassandra's own against the real server: the clock, the bytes an extend sends, oversized requests, batch
 * loads, the counters and the keyspace administration. The record operations are SessionContractTest's.
 */
class CassandraTargetIntegrationTest {
    private static final List<String> FIELDS = List.of("FIELD0", "FIELD1", "FIELD2");
    private static CassandraTarget target;

    @BeforeAll
    static void open() throws TargetException {
        target = CassandraTarget.openTarget(CassandraFixture.config(Map.of()));
    }

    @AfterAll
    static void close() {
        if (target != null) {
            target.close();
        }
    }

    private static TableSpec table(String name) {
        return new TableSpec(name, "YCSB_KEY", FIELDS, 1000, null);
    }

    private static Map<String, String> record(String prefix) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String f : FIELDS) {
            values.put(f, prefix + f);
        }
        return values;
    }

    /**
     * The coordinator's clock in milliseconds: the server runs on this host, so its reading, truncated to the
     * millisecond, lies between this host's readings before and after the round trip, less one millisecond.
     */
    @Test
    void theServerClockIsTheCoordinatorsInMilliseconds() throws Exception {
        ServerClock clock = target.capability(ServerClock.class).orElseThrow();
        assertEquals(CassandraServerClock.CQL, clock.source());
        assertEquals(1000, clock.resolutionMicros());
        try (ServerClock.Reader reader = clock.open()) {
            for (int i = 0; i < 3; i++) {
                long before = localMicros();
                long server = reader.nowMicros();
                long after = localMicros();
                assertEquals(0, server % 1000, "whole milliseconds: " + server);
                assertTrue(
                        before - 1000 < server && server <= after,
                        "server " + server + " not within [" + before + " - 1 ms, " + after + "] (microseconds)");
            }
        }
    }

    private static long localMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1000;
    }

    @Test
    void plainExtendSendsTheGrownValue() throws Exception {
        extendSends(target, "it_extend_plain", 15);
    }

    @Test
    void conditionalExtendSendsTheOldValueAsItsCondition() throws Exception {
        try (CassandraTarget lwt =
                CassandraTarget.openTarget(CassandraFixture.config(Map.of("extendWrite", "conditional")))) {
            extendSends(lwt, "it_extend_lwt", 10 + 15);
        }
    }

    /**
     * {@code written}: the bytes the first extend sends (the grown value, plus the old one as an LWT's condition);
     * and a field never written (null in CQL) grows from empty. The cap, the skip and not found are
     * SessionContractTest's.
     */
    private static void extendSends(CassandraTarget t, String table, long written) throws Exception {
        t.createTable(table(table));
        try (Session s = t.openSession()) {
            s.insert(table, "k", Map.of("FIELD0", "0123456789"));
            OpResult grown = s.extend(table, "k", "FIELD0", "abcde", 20, ExtendMethod.CLIENT);
            assertEquals(Outcome.OK, grown.outcome());
            assertEquals(10, grown.bytesRead());
            assertEquals(written, grown.bytesWritten());
            assertEquals(
                    Outcome.OK,
                    s.extend(table, "k", "FIELD1", "xy", 20, ExtendMethod.CLIENT)
                            .outcome());
            Map<String, String> out = new LinkedHashMap<>();
            s.read(table, "k", List.of("FIELD0", "FIELD1"), out);
            assertEquals(Map.of("FIELD0", "0123456789abcde", "FIELD1", "xy"), out);
        }
        t.dropTable(table);
    }

    /**
     * A write past the server's largest request (native_transport_max_message_size, below the 16 MiB mutation
     * limit by default) is refused: that operation's ERROR, not a failure of the session.
     */
    @Test
    void oversizedRequestIsAnErrorWithItsReason() throws Exception {
        target.createTable(table("it_large"));
        try (Session s = target.openSession()) {
            OpResult r = s.insert("it_large", "big", Map.of("FIELD0", "x".repeat(17 * 1024 * 1024)));
            assertEquals(Outcome.ERROR, r.outcome());
            assertEquals(CassandraErrors.MESSAGE_TOO_LARGE, r.reason());
            assertEquals(
                    Outcome.ABORTED,
                    s.read("it_large", "big", null, new LinkedHashMap<>()).outcome());
        }
        target.dropTable("it_large");
    }

    @Test
    void batchLoadIsCountedAndStreamed() throws Exception {
        target.createTable(table("it_batch"));
        List<Record> batch = new ArrayList<>();
        for (int i = 0; i < 250; i++) {
            batch.add(new Record("user" + i, record("b" + i)));
        }
        try (Session s = target.openSession()) {
            s.insertBatch("it_batch", batch.subList(0, 100));
            s.insertBatch("it_batch", batch.subList(100, 250));
        }
        assertEquals(250, target.countRecords("it_batch"));
        Set<String> keys = new HashSet<>();
        target.forEachRecord("it_batch", r -> {
            assertEquals(record("b" + r.key().substring(4)), r.fields());
            keys.add(r.key());
        });
        assertEquals(250, keys.size());
        target.dropTable("it_batch");
    }

    /** The server's per-table request counts move by exactly what the client sent. */
    @Test
    void serverCountsEqualWhatTheClientSent() throws Exception {
        target.createTable(table("it_counts"));
        String ks = CassandraUrl.parse(CassandraFixture.url()).keyspace();
        String reads = "coordinator_read." + ks + ".it_counts.count";
        String writes = "coordinator_write." + ks + ".it_counts.count";
        Map<String, Double> before = target.snapshot();
        try (Session s = target.openSession()) {
            for (int i = 0; i < 40; i++) {
                s.insert("it_counts", "user" + i, record("c"));
            }
            for (int i = 0; i < 30; i++) {
                s.read("it_counts", "user" + i, null, new LinkedHashMap<>());
            }
            for (int i = 0; i < 25; i++) {
                s.extend("it_counts", "user" + i, "FIELD0", "x", 1000, ExtendMethod.CLIENT);
            }
        }
        Map<String, Double> after = target.snapshot();
        assertEquals(30 + 25, after.get(reads) - before.getOrDefault(reads, 0.0), "reads: 30 reads + 25 extends");
        assertEquals(40 + 25, after.get(writes) - before.getOrDefault(writes, 0.0), "writes: 40 inserts + 25 extends");
        assertTrue(
                after.containsKey("thread_pools.ReadStage.completed_tasks"),
                after.keySet().toString());
        assertTrue(after.containsKey("caches.keys.hit_count"), after.keySet().toString());
        assertTrue(after.get("clients.connected") >= 1);
        for (String name : CassandraKind.class
                .getDeclaredConstructor()
                .newInstance()
                .defaultCounters()
                .keySet()) {
            assertTrue(after.containsKey(name), "default counter " + name + " is reported: " + after.keySet());
        }
        target.dropTable("it_counts");
    }

    @Test
    void environmentNamesTheRelease() throws Exception {
        Map<String, Object> env = target.environment();
        assertTrue(String.valueOf(env.get("serverVersion")).startsWith("5.0"), env.toString());
        assertEquals("ONE", env.get("readConsistency"));
        assertTrue(String.valueOf(env.get("driver")).startsWith("java-driver-core 4.19"), env.toString());
    }

    @Test
    void freshKeyspacesAreMadeAndDropped() throws Exception {
        target.createDatabase("ivs_it_fresh", true);
        try (Target fresh = target.withDatabase("ivs_it_fresh")) {
            fresh.createTable(table("t"));
            try (Session s = fresh.openSession()) {
                s.insert("t", "a", record("f"));
            }
            assertEquals(1, fresh.countRecords("t"));
        }
        target.createDatabase("ivs_it_fresh", true);
        try (Target again = target.withDatabase("ivs_it_fresh")) {
            assertThrows(TargetException.class, () -> again.countRecords("t"), "dropped with the keyspace");
        }
        target.dropDatabase("ivs_it_fresh");
        assertNull(target.session().getMetadata().getKeyspace("ivs_it_fresh").orElse(null));
    }
}
