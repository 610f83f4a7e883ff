package org.ivsbench.db;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import org.ivsbench.config.TargetConfig;
import org.ivsbench.db.KindFeatures.Feature;
import org.ivsbench.db.cassandra.CassandraFixture;
import org.ivsbench.op.OpResult;
import org.ivsbench.op.Outcome;
import org.ivsbench.testsupport.TestServers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The {@link Session} and {@link KindFeatures} rules every kind keeps, run on each: SQLite (in process), MariaDB with
 * InnoDB and with MyRocks, PostgreSQL, Cassandra and the MongoDB stand-in (the private servers scripts/ start), and
 * the test-only MEMORY kind. A server that is not configured fails its kind's cases (IVS_ALLOW_SKIP=1 skips them).
 * Per-kind test classes keep only what is their kind's own. Expected values are written out here, never read back
 * from the binding under test.
 *
 * <p>Where kinds may differ the {@link Subject} says so: Cassandra's writes are upserts and its scans follow the
 * token order, and under contention some kinds abort an extend (a deadlock, a conflict), which then writes nothing.
 */
class SessionContractTest {
    private static final String T = "contract_t";
    private static final String KEY = "YCSB_KEY";
    private static final List<String> FIELDS = List.of("FIELD0", "FIELD1");
    private static final int THREADS = 3;
    private static final int EXTENDS_PER_THREAD = 20;
    private static final String SUFFIX = "0123456789";

    @TempDir
    static Path dir;

    /** How to reach one kind, and what its documented semantics allow. */
    record Subject(
            String name,
            String type,
            ConfigSource config,
            String engine,
            boolean upserts,
            boolean keyOrder,
            boolean contentionAborts,
            Map<String, String> atomicExtendOptions) {
        @Override
        public String toString() {
            return name;
        }

        TargetConfig config(Map<String, String> extraOptions) throws Exception {
            TargetConfig c = config.get();
            if (!extraOptions.isEmpty()) {
                Map<String, String> options = new LinkedHashMap<>(c.options());
                options.putAll(extraOptions);
                c = new TargetConfig(
                        c.type(),
                        c.driver(),
                        c.url(),
                        c.username(),
                        c.password(),
                        c.isolation(),
                        c.reconnectOnConnectionFailure(),
                        options);
            }
            return TargetKinds.resolve(c);
        }

        /** Known without the server: the kind is found by its type name. */
        KindFeatures features() {
            return TargetKinds.of(type).features();
        }
    }

    /** A kind's connection, read only when a case of that kind runs (so a missing server fails only its cases). */
    @FunctionalInterface
    interface ConfigSource {
        TargetConfig get() throws Exception;
    }

    static Stream<Subject> kinds() {
        return Stream.of(
                new Subject(
                        "SQLite",
                        "SQLITE",
                        () -> TestServers.sqlite(dir.resolve("contract.db")),
                        null,
                        false,
                        true,
                        true,
                        Map.of()),
                new Subject("MariaDB InnoDB", "MARIADB", TestServers::mariadb, "InnoDB", false, true, true, Map.of()),
                new Subject("MyRocks", "MARIADB", TestServers::mariadb, "RocksDB", false, true, true, Map.of()),
                new Subject("PostgreSQL", "POSTGRESQL", TestServers::postgres, null, false, true, false, Map.of()),
                new Subject(
                        "Cassandra",
                        "CASSANDRA",
                        SessionContractTest::cassandra,
                        null,
                        true,
                        false,
                        true,
                        Map.of("extendWrite", "conditional")),
                new Subject("MongoDB stand-in", "MONGODB", TestServers::mongo, null, false, true, true, Map.of()),
                new Subject("MEMORY", "MEMORY", SessionContractTest::memory, null, false, true, false, Map.of()));
    }

    /** Every kind with every extend method it offers. */
    static Stream<Arguments> extendMethods() {
        return kinds().flatMap(k -> methods(k, List.of(ExtendMethod.values())));
    }

    /** Every kind with every extend method that must lose no append: CLIENT, and SERVER where offered. */
    static Stream<Arguments> atomicExtendMethods() {
        return kinds().flatMap(k -> methods(k, List.of(ExtendMethod.CLIENT, ExtendMethod.SERVER)));
    }

    private static Stream<Arguments> methods(Subject kind, List<ExtendMethod> methods) {
        return methods.stream()
                .filter(m -> m != ExtendMethod.SERVER || kind.features().has(Feature.SERVER_EXTEND))
                .map(m -> Arguments.of(kind, m));
    }

    static Stream<Subject> rangeBetweenKinds() {
        return kinds().filter(k -> k.features().has(Feature.RANGE_BETWEEN));
    }

    static Stream<Subject> rangeDeleteKinds() {
        return kinds().filter(k -> k.features().has(Feature.RANGE_DELETE));
    }

    private static TargetConfig cassandra() {
        return CassandraFixture.config(Map.of());
    }

    private static TargetConfig memory() {
        return new TargetConfig("MEMORY", null, "memory:contract", null, null, null, false, Map.of());
    }

    private static Target open(Subject kind) throws Exception {
        return open(kind, Map.of());
    }

    private static Target open(Subject kind, Map<String, String> options) throws Exception {
        Target target = Targets.open(kind.config(options));
        target.createTable(new TableSpec(T, KEY, FIELDS, 1_000_000, kind.engine()));
        return target;
    }

    private static Map<String, String> record(String f0, String f1) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("FIELD0", f0);
        m.put("FIELD1", f1);
        return m;
    }

    /** user00 .. user0{n-1}, fields v{i} and w{i}. */
    private static List<Record> records(int n) {
        List<Record> records = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            records.add(new Record("user0" + i, record("v" + i, "w" + i)));
        }
        return records;
    }

    private static void assertOutcome(Outcome outcome, String reason, OpResult r) {
        assertEquals(outcome, r.outcome(), r.toString());
        assertEquals(reason, r.reason(), r.toString());
    }

    /** A kind registered later joins the contract: it fails here until its connection is in {@link #kinds()}. */
    @Test
    void everyRegisteredKindRunsTheContract() {
        Set<String> registered = new TreeSet<>();
        for (TargetKind kind : TargetKinds.all()) {
            registered.add(kind.names().get(0));
        }
        assertEquals(registered, kinds().map(Subject::type).collect(Collectors.toCollection(TreeSet::new)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void theFeaturesAreWhatTheTargetOffers(Subject kind) throws Exception {
        KindFeatures features = kind.features();
        try (Target target = open(kind);
                Session s = target.openSession()) {
            assertEquals(kind.type(), kind.config(Map.of()).type());
            assertEquals(TargetKinds.of(kind.type()).getClass(), target.kind().getClass(), "the registered kind");
            assertEquals(
                    features.has(Feature.NATIVE_SNAPSHOT),
                    target.capability(NativeSnapshot.class).isPresent(),
                    "NATIVE_SNAPSHOT " + features);
            assertEquals(
                    features.has(Feature.FRESH_DATABASES),
                    target.capability(DatabaseAdmin.class).isPresent(),
                    "FRESH_DATABASES " + features);
            assertEquals(
                    features.has(Feature.REORGANIZATION),
                    target.capability(Reorganization.class).isPresent(),
                    "REORGANIZATION " + features);
            s.insert(T, "k", record("a", "b"));
            if (!features.has(Feature.SERVER_EXTEND)) {
                assertThrows(TargetException.class, () -> s.extend(T, "k", "FIELD0", "x", 100, ExtendMethod.SERVER));
            }
            if (!features.has(Feature.RANGE_DELETE)) {
                assertThrows(TargetException.class, () -> s.deleteRange(T, "k", 1, n -> {}));
            }
            if (!features.has(Feature.RANGE_BETWEEN)) {
                assertThrows(TargetException.class, () -> s.scanBetween(T, "a", "z", null, new ArrayList<>()));
                assertThrows(TargetException.class, () -> s.deleteBetween(T, "a", "z", n -> {}));
            }
            Map<String, String> out = new HashMap<>();
            s.read(T, "k", null, out);
            assertEquals(record("a", "b"), out, "what a kind cannot do wrote nothing");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rangeDeleteKinds")
    void rangeDeleteRemovesCountRecordsFromTheStartKey(Subject kind) throws Exception {
        try (Target target = open(kind);
                Session s = target.openSession()) {
            s.insertBatch(T, records(6));
            List<Long> deleted = new ArrayList<>();
            assertOutcome(Outcome.OK, null, s.deleteRange(T, "user01", 3, deleted::add));
            assertEquals(List.of(3L), deleted, "told once, the records deleted");
            assertOutcome(Outcome.OK, null, s.deleteRange(T, "user045", 9, deleted::add));
            assertEquals(List.of(3L, 1L), deleted, "only user05 is left from user045 on");
            assertOutcome(Outcome.ABORTED, "not found", s.deleteRange(T, "user06", 2, deleted::add));
            List<String> keys = new ArrayList<>();
            target.forEachRecord(T, r -> keys.add(r.key()));
            assertEquals(List.of("user00", "user04"), keys);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rangeBetweenKinds")
    void scanBetweenReadsEveryRecordFromTheStartKeyToTheEndKeyInKeyOrder(Subject kind) throws Exception {
        try (Target target = open(kind);
                Session s = target.openSession()) {
            s.insertBatch(T, records(6)); // user00 .. user05
            List<Map<String, String>> rows = new ArrayList<>();
            assertOutcome(Outcome.OK, null, s.scanBetween(T, "user01", "user03", null, rows));
            assertEquals(List.of(record("v1", "w1"), record("v2", "w2"), record("v3", "w3")), rows, "both ends in");
            rows.clear();
            assertOutcome(Outcome.OK, null, s.scanBetween(T, "user015", "user04~", List.of("FIELD1"), rows));
            assertEquals(List.of(Map.of("FIELD1", "w2"), Map.of("FIELD1", "w3"), Map.of("FIELD1", "w4")), rows);
            rows.clear();
            assertOutcome(Outcome.OK, null, s.scanBetween(T, "user05", "user99", null, rows));
            assertEquals(List.of(record("v5", "w5")), rows, "past the last key");
            rows.clear();
            assertOutcome(Outcome.OK, null, s.scanBetween(T, "user06", "user09", null, rows));
            assertEquals(List.of(), rows, "an empty range is OK with no rows");
            assertOutcome(Outcome.OK, null, s.scanBetween(T, "user03", "user01", null, rows));
            assertEquals(List.of(), rows, "an end before the start holds nothing");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rangeBetweenKinds")
    void deleteBetweenRemovesEveryRecordFromTheStartKeyToTheEndKey(Subject kind) throws Exception {
        try (Target target = open(kind);
                Session s = target.openSession()) {
            s.insertBatch(T, records(8)); // user00 .. user07
            List<Long> deleted = new ArrayList<>();
            assertOutcome(Outcome.OK, null, s.deleteBetween(T, "user01", "user02", deleted::add));
            assertEquals(List.of(2L), deleted, "told once, the records deleted: both ends in");
            assertOutcome(Outcome.OK, null, s.deleteBetween(T, "user005", "user04~", deleted::add));
            assertEquals(
                    List.of(2L, 2L), deleted, "user03 and user04: user00 sorts before user005, user01-02 are gone");
            assertOutcome(Outcome.OK, null, s.deleteBetween(T, "user06", "user06", deleted::add));
            assertEquals(List.of(2L, 2L, 1L), deleted, "a range of one key");
            assertOutcome(Outcome.ABORTED, "not found", s.deleteBetween(T, "user08", "user99", deleted::add));
            assertOutcome(Outcome.ABORTED, "not found", s.deleteBetween(T, "user07", "user05", deleted::add));
            assertEquals(List.of(2L, 2L, 1L, 0L, 0L), deleted, "an empty range, an end before the start: none");
            List<String> keys = new ArrayList<>();
            target.forEachRecord(T, r -> keys.add(r.key()));
            assertEquals(List.of("user00", "user05", "user07"), keys);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void aMissingKeyIsAbortedNotFound(Subject kind) throws Exception {
        try (Target target = open(kind);
                Session s = target.openSession()) {
            Map<String, String> out = new HashMap<>();
            assertOutcome(Outcome.ABORTED, "not found", s.read(T, "nobody", null, out));
            assertEquals(Map.of(), out, "nothing read");
            for (ExtendMethod method : ExtendMethod.values()) {
                if (method != ExtendMethod.SERVER || kind.features().has(Feature.SERVER_EXTEND)) {
                    assertOutcome(Outcome.ABORTED, "not found", s.extend(T, "nobody", "FIELD0", "x", 100, method));
                }
            }
            if (!kind.upserts()) {
                assertOutcome(Outcome.ABORTED, "not found", s.update(T, "nobody", Map.of("FIELD0", "x")));
                assertOutcome(Outcome.ABORTED, "not found", s.delete(T, "nobody"));
            }
            assertEquals(0, target.countRecords(T), kind.upserts() ? "a delete creates nothing" : "nothing written");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void insertReadUpdateDelete(Subject kind) throws Exception {
        try (Target target = open(kind);
                Session s = target.openSession()) {
            OpResult inserted = s.insert(T, "k1", record("abc", "de"));
            assertOutcome(Outcome.OK, null, inserted);
            assertEquals(5, inserted.bytesWritten(), "the values' bytes");

            Map<String, String> out = new HashMap<>();
            OpResult read = s.read(T, "k1", null, out);
            assertOutcome(Outcome.OK, null, read);
            assertEquals(record("abc", "de"), out, "every field under its name, no key");
            assertEquals(5, read.bytesRead());
            out.clear();
            assertOutcome(Outcome.OK, null, s.read(T, "k1", List.of("FIELD1"), out));
            assertEquals(Map.of("FIELD1", "de"), out, "only the fields asked for");

            OpResult again = s.insert(T, "k1", record("xyz", "de"));
            if (kind.upserts()) {
                assertOutcome(Outcome.OK, null, again);
                out.clear();
                s.read(T, "k1", null, out);
                assertEquals(record("xyz", "de"), out, "an upsert replaces");
            } else {
                assertOutcome(Outcome.ABORTED, "duplicate key", again);
                out.clear();
                s.read(T, "k1", null, out);
                assertEquals(record("abc", "de"), out, "the refused insert wrote nothing");
            }

            OpResult updated = s.update(T, "k1", Map.of("FIELD1", "changed"));
            assertOutcome(Outcome.OK, null, updated);
            assertEquals(7, updated.bytesWritten());
            out.clear();
            s.read(T, "k1", null, out);
            assertEquals("changed", out.get("FIELD1"));
            assertEquals(kind.upserts() ? "xyz" : "abc", out.get("FIELD0"), "the other field untouched");

            assertEquals(1, target.countRecords(T));
            assertOutcome(Outcome.OK, null, s.delete(T, "k1"));
            assertOutcome(Outcome.ABORTED, "not found", s.read(T, "k1", null, new HashMap<>()));
            assertEquals(0, target.countRecords(T));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void batchScanAndStream(Subject kind) throws Exception {
        try (Target target = open(kind);
                Session s = target.openSession()) {
            List<Record> batch = records(10);
            Collections.reverse(batch); // out of order: the database orders
            s.insertBatch(T, batch);
            assertEquals(10, target.countRecords(T));

            List<String> keys = new ArrayList<>();
            target.forEachRecord(T, r -> {
                keys.add(r.key());
                assertEquals(record("v" + r.key().charAt(5), "w" + r.key().charAt(5)), r.fields(), r.key());
            });
            List<String> expected = List.of(
                    "user00", "user01", "user02", "user03", "user04", "user05", "user06", "user07", "user08", "user09");
            if (kind.keyOrder()) {
                assertEquals(expected, keys, "streamed in key order");
            } else {
                assertEquals(expected, keys.stream().sorted().toList(), "every record streamed once");
            }

            List<Map<String, String>> rows = new ArrayList<>();
            assertOutcome(Outcome.OK, null, s.scan(T, "user03", 4, List.of("FIELD0"), rows));
            if (kind.keyOrder()) {
                assertEquals(
                        List.of(
                                Map.of("FIELD0", "v3"),
                                Map.of("FIELD0", "v4"),
                                Map.of("FIELD0", "v5"),
                                Map.of("FIELD0", "v6")),
                        rows,
                        "count records from the start key, in key order");
                rows.clear();
                s.scan(T, "user08", 5, null, rows);
                assertEquals(List.of(record("v8", "w8"), record("v9", "w9")), rows, "up to the table's end");
            } else {
                assertTrue(rows.size() >= 1 && rows.size() <= 4, "at most count records: " + rows);
                assertEquals(Map.of("FIELD0", "v3"), rows.get(0), "the start key's record first");
            }
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("extendMethods")
    void extendAppendsUpToTheCapThenSkipsWritingNothing(Subject kind, ExtendMethod method) throws Exception {
        try (Target target = open(kind);
                Session s = target.openSession()) {
            s.insert(T, "k", record("xxxxxx", "y"));
            OpResult grown = s.extend(T, "k", "FIELD0", "abcd", 10, method);
            assertOutcome(Outcome.OK, null, grown);
            OpResult capped = s.extend(T, "k", "FIELD0", "e", 10, method);
            assertOutcome(Outcome.SKIPPED, "cap", capped);
            if (method != ExtendMethod.SERVER) {
                assertEquals(10, grown.sizeBytes(), "the length after the extend");
                assertEquals(10, capped.sizeBytes(), "the length as it stayed");
            }
            Map<String, String> out = new HashMap<>();
            assertOutcome(Outcome.OK, null, s.read(T, "k", null, out));
            assertEquals(
                    record("xxxxxxabcd", "y"), out, "up to the cap exactly, then nothing; the other field untouched");
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("atomicExtendMethods")
    void concurrentExtendsLoseNoAppend(Subject kind, ExtendMethod method) throws Exception {
        try (Target target = open(kind, kind.atomicExtendOptions())) {
            try (Session s = target.openSession()) {
                s.insert(T, "hot", record("start", ""));
            }
            ExecutorService pool = Executors.newFixedThreadPool(THREADS);
            List<Future<long[]>> results = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                results.add(pool.submit(() -> {
                    long[] okAndUndecided = new long[2];
                    try (Session s = target.openSession()) {
                        for (int i = 0; i < EXTENDS_PER_THREAD; i++) {
                            OpResult r = s.extend(T, "hot", "FIELD0", SUFFIX, 1_000_000, method);
                            if (r.outcome() == Outcome.OK) {
                                okAndUndecided[0]++;
                            } else if (kind.contentionAborts() && r.outcome() == Outcome.ABORTED) {
                                continue; // a deadlock or a conflict: reported, nothing written
                            } else if (kind.upserts() && "write timeout".equals(r.reason())) {
                                okAndUndecided[1]++; // Cassandra's Paxos under contention: applied or not, unknown
                            } else {
                                throw new AssertionError(kind + " " + method + ": " + r);
                            }
                        }
                    }
                    return okAndUndecided;
                }));
            }
            long ok = 0;
            long undecided = 0;
            for (Future<long[]> f : results) {
                long[] counts = f.get();
                ok += counts[0];
                undecided += counts[1];
            }
            pool.shutdown();
            Map<String, String> out = new HashMap<>();
            try (Session s = target.openSession()) {
                s.read(T, "hot", null, out);
            }
            long length = out.get("FIELD0").length();
            assertTrue(ok > 0, "some extends succeed");
            assertTrue(
                    length >= 5 + SUFFIX.length() * ok && length <= 5 + SUFFIX.length() * (ok + undecided),
                    "every OK append is in the value and nothing else: " + length + " chars, " + ok + " OK, "
                            + undecided + " undecided");
        }
    }
}
