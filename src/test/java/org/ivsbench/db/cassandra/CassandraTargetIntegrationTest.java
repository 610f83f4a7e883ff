package org.ivsbench.db.cassandra;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

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

/** Every record operation, the counters and the keyspace administration against the real Cassandra. */
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
    void everyRecordOperation() throws Exception {
        target.createTable(table("it_ops"));
        try (Session s = target.openSession()) {
            for (int i = 0; i < 20; i++) {
                assertEquals(
                        Outcome.OK,
                        s.insert("it_ops", "user" + i, record("v" + i)).outcome());
            }
            Map<String, String> out = new LinkedHashMap<>();
            OpResult read = s.read("it_ops", "user3", null, out);
            assertEquals(Outcome.OK, read.outcome());
            assertEquals(record("v3"), out, "every field under the benchmark's names, no key");
            assertEquals(3 * "v3FIELD0".length(), read.bytesRead());

            out.clear();
            assertEquals(
                    Outcome.OK,
                    s.read("it_ops", "user3", List.of("FIELD1"), out).outcome());
            assertEquals(Map.of("FIELD1", "v3FIELD1"), out);

            OpResult missing = s.read("it_ops", "nobody", null, new LinkedHashMap<>());
            assertEquals(Outcome.ABORTED, missing.outcome());
            assertEquals("not found", missing.reason());

            assertEquals(
                    Outcome.OK,
                    s.update("it_ops", "user3", Map.of("FIELD2", "changed")).outcome());
            out.clear();
            s.read("it_ops", "user3", null, out);
            assertEquals("changed", out.get("FIELD2"));
            assertEquals("v3FIELD0", out.get("FIELD0"), "the other fields untouched");

            // Token order from the start key: the start key's row comes first, then the next tokens.
            List<Map<String, String>> rows = new ArrayList<>();
            assertEquals(Outcome.OK, s.scan("it_ops", "user5", 7, null, rows).outcome());
            assertTrue(rows.size() >= 1 && rows.size() <= 7, "at most count rows: " + rows.size());
            assertEquals(record("v5"), rows.get(0));
            List<Map<String, String>> all = new ArrayList<>();
            s.scan("it_ops", "user5", 100, List.of("FIELD0"), all);
            assertEquals(rows.size() == 7 ? all.subList(0, 7).size() : all.size(), rows.size());
            assertEquals(Set.of("FIELD0"), all.get(0).keySet());

            assertEquals(Outcome.OK, s.delete("it_ops", "user7").outcome());
            assertEquals(
                    Outcome.ABORTED,
                    s.read("it_ops", "user7", null, new LinkedHashMap<>()).outcome());
            assertEquals(19, target.countRecords("it_ops"));
        }
        target.dropTable("it_ops");
    }

    @Test
    void plainExtendGrowsAndTheCapIsARealSkip() throws Exception {
        extendGrowsAndSkips(target, "it_extend_plain", 15);
    }

    @Test
    void conditionalExtendGrowsAndTheCapIsARealSkip() throws Exception {
        try (CassandraTarget lwt =
                CassandraTarget.openTarget(CassandraFixture.config(Map.of("extendWrite", "conditional")))) {
            extendGrowsAndSkips(lwt, "it_extend_lwt", 10 + 15);
        }
    }

    /**
     * Two sessions extend the same field at once with extendWrite=conditional: every append reported OK is in the
     * final value (the LWT's condition turns a lost race into a re-read, never into a lost append).
     */
    @Test
    void conditionalExtendsLoseNoAppendUnderContention() throws Exception {
        try (CassandraTarget lwt =
                CassandraTarget.openTarget(CassandraFixture.config(Map.of("extendWrite", "conditional")))) {
            lwt.createTable(table("it_contention"));
            try (Session s = lwt.openSession()) {
                s.insert("it_contention", "hot", Map.of("FIELD0", ""));
            }
            AtomicLong ok = new AtomicLong();
            AtomicLong undecided = new AtomicLong();
            List<Thread> threads = new ArrayList<>();
            List<Throwable> failures = new CopyOnWriteArrayList<>();
            for (int t = 0; t < 2; t++) {
                Thread thread = new Thread(() -> {
                    try (Session s = lwt.openSession()) {
                        for (int i = 0; i < 40; i++) {
                            OpResult r = s.extend("it_contention", "hot", "FIELD0", "x", 1000, ExtendMethod.CLIENT);
                            if (r.isOk()) {
                                ok.incrementAndGet();
                            } else if (CassandraErrors.WRITE_TIMEOUT.equals(r.reason())) {
                                undecided.incrementAndGet(); // Paxos contention: applied or not, unknown
                            } else {
                                assertEquals("conflict", r.reason());
                            }
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                });
                threads.add(thread);
                thread.start();
            }
            for (Thread thread : threads) {
                thread.join();
            }
            assertEquals(List.of(), failures);
            Map<String, String> out = new LinkedHashMap<>();
            try (Session s = lwt.openSession()) {
                s.read("it_contention", "hot", null, out);
            }
            assertTrue(ok.get() > 0);
            long length = out.get("FIELD0").length();
            assertTrue(
                    length >= ok.get() && length <= ok.get() + undecided.get(),
                    "every OK append is in the value: " + length + " chars, " + ok + " OK, " + undecided
                            + " timed out");
            lwt.dropTable("it_contention");
        }
    }

    /** {@code written}: the bytes the first extend sends (the grown value, plus the old one as an LWT's condition). */
    private static void extendGrowsAndSkips(CassandraTarget t, String table, long written) throws Exception {
        t.createTable(table(table));
        try (Session s = t.openSession()) {
            s.insert(table, "k", Map.of("FIELD0", "0123456789"));
            OpResult grown = s.extend(table, "k", "FIELD0", "abcde", 20, ExtendMethod.CLIENT);
            assertEquals(Outcome.OK, grown.outcome());
            assertEquals(10, grown.bytesRead());
            assertEquals(written, grown.bytesWritten());
            Map<String, String> out = new LinkedHashMap<>();
            s.read(table, "k", List.of("FIELD0"), out);
            assertEquals("0123456789abcde", out.get("FIELD0"));

            OpResult capped = s.extend(table, "k", "FIELD0", "abcdef", 20, ExtendMethod.CLIENT);
            assertEquals(Outcome.SKIPPED, capped.outcome());
            assertEquals("cap", capped.reason());
            out.clear();
            s.read(table, "k", List.of("FIELD0"), out);
            assertEquals("0123456789abcde", out.get("FIELD0"), "a skipped extend writes nothing");

            // A field never written (null in CQL) grows from empty.
            assertEquals(
                    Outcome.OK,
                    s.extend(table, "k", "FIELD1", "xy", 20, ExtendMethod.CLIENT)
                            .outcome());
            out.clear();
            s.read(table, "k", List.of("FIELD1"), out);
            assertEquals("xy", out.get("FIELD1"));

            OpResult missing = s.extend(table, "nobody", "FIELD0", "x", 20, ExtendMethod.CLIENT);
            assertEquals(Outcome.ABORTED, missing.outcome());
            assertEquals("not found", missing.reason());
            assertThrows(TargetException.class, () -> s.extend(table, "k", "FIELD0", "x", 20, ExtendMethod.SERVER));
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
