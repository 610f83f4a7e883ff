package org.ivsbench.db.mongo;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

import com.mongodb.MongoCredential;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.model.Filters;
import org.bson.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.ivsbench.config.TargetConfig;
import org.ivsbench.db.CounterKind;
import org.ivsbench.db.ExtendMethod;
import org.ivsbench.db.Record;
import org.ivsbench.db.Session;
import org.ivsbench.db.TableSpec;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;
import org.ivsbench.op.OpResult;
import org.ivsbench.op.Outcome;
import org.ivsbench.testsupport.TestServers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The MongoDB target against the stand-in process (see package-info for what that can and cannot prove). */
class MongoTargetTest {
    private static final long MAX = 1_600_000;

    private MongoFixture fx;

    @BeforeEach
    void open() throws TargetException {
        fx = new MongoFixture();
    }

    @AfterEach
    void close() {
        fx.close();
    }

    /**
     * The record operations are SessionContractTest's; here what MongoDB makes its own: a count of 0 (MongoDB's
     * limit(0) would mean all), and the bytes of ten-field documents.
     */
    @Test
    void scanCountsAndBytesOfWholeDocuments() throws Exception {
        TableSpec t = fx.table("crud");
        List<Record> loaded = MongoFixture.records(20, 100);
        try (Session s = fx.target.openSession()) {
            s.insertBatch(t.name(), loaded);
            Map<String, String> out = new HashMap<>();
            OpResult r = s.read(t.name(), "user0003", null, out);
            assertEquals(loaded.get(3).fields(), out, "all fields, under the TableSpec's names");
            assertEquals(1000, r.bytesRead());
            List<Map<String, String>> rows = new ArrayList<>();
            OpResult sc = s.scan(t.name(), "user0010", 5, null, rows);
            assertEquals(5, rows.size());
            assertEquals(5000, sc.bytesRead());
            rows.clear();
            assertTrue(s.scan(t.name(), "user0000", 0, null, rows).isOk());
            assertTrue(rows.isEmpty(), "count 0 reads nothing (MongoDB's limit(0) would mean all)");
        }
    }

    @Test
    void documentsLookLikeYcsbs() throws Exception {
        TableSpec t = fx.table("layout");
        try (Session s = fx.target.openSession()) {
            s.insert(t.name(), "user1", MongoFixture.fields("user1", 10));
        }
        try (MongoClient raw = MongoClients.create(TestServers.mongoUrl())) {
            Document doc = raw.getDatabase("ivsbench")
                    .getCollection(t.name())
                    .find(Filters.eq("_id", "user1"))
                    .first();
            assertNotNull(doc);
            assertEquals(
                    List.of(
                            "_id", "field0", "field1", "field2", "field3", "field4", "field5", "field6", "field7",
                            "field8", "field9"),
                    new ArrayList<>(doc.keySet()));
        }
        try (MongoFixture verbatim = new MongoFixture(Map.of("lowercaseFields", "false"))) {
            TableSpec v = verbatim.table("verbatim");
            try (Session s = verbatim.target.openSession()) {
                s.insert(v.name(), "user1", Map.of("FIELD0", "a"));
            }
            try (MongoClient raw = MongoClients.create(TestServers.mongoUrl())) {
                Document doc = raw.getDatabase("ivsbench")
                        .getCollection(v.name())
                        .find()
                        .first();
                assertEquals(Set.of("_id", "FIELD0"), doc.keySet());
            }
        }
    }

    @Test
    void clientExtendAppendsReadingOnlyThatField() throws Exception {
        TableSpec t = fx.table("extend");
        try (Session s = fx.target.openSession()) {
            s.insertBatch(t.name(), MongoFixture.records(3, 100));
            String before = fx.contents(t.name()).get("user0001").get("FIELD2");
            fx.commands.clear();
            OpResult r = s.extend(t.name(), "user0001", "FIELD2", "+".repeat(50), MAX, ExtendMethod.CLIENT);
            assertEquals(Outcome.OK, r.outcome());
            assertEquals(100, r.bytesRead(), "only the one field is read");
            assertEquals(250, r.bytesWritten(), "sent: the old value as the guard and the grown one");
            assertEquals(List.of("find", "update"), fx.commands);
            Map<String, Map<String, String>> after = fx.contents(t.name());
            assertEquals(before + "+".repeat(50), after.get("user0001").get("FIELD2"));
            assertEquals(100, after.get("user0001").get("FIELD3").length());
        }
    }

    @Test
    void cappedExtendChangesNothingAndSendsNoUpdate() throws Exception {
        TableSpec t = fx.table("cap");
        try (Session s = fx.target.openSession();
                MongoClient raw = MongoClients.create(TestServers.mongoUrl())) {
            s.insert(t.name(), "user1", MongoFixture.fields("user1", 450));
            var collection = raw.getDatabase("ivsbench").getCollection(t.name());
            Document before = collection.find(Filters.eq("_id", "user1")).first();
            for (ExtendMethod method : ExtendMethod.values()) {
                fx.commands.clear();
                OpResult r = s.extend(t.name(), "user1", "FIELD4", "x".repeat(100), 500, method);
                assertEquals(Outcome.SKIPPED, r.outcome(), method.name());
                assertEquals("cap", r.reason());
                assertEquals(0, r.bytesWritten());
                assertFalse(fx.commands.contains("update"), method + ": no update reached the server: " + fx.commands);
                assertEquals(
                        before,
                        collection.find(Filters.eq("_id", "user1")).first(),
                        method + ": the document is byte-for-byte unchanged");
            }
            // Exactly at the cap is allowed: the cap is the longest value kept, not the first refused.
            assertEquals(
                    Outcome.OK,
                    s.extend(t.name(), "user1", "FIELD4", "x".repeat(50), 500, ExtendMethod.CLIENT)
                            .outcome());
            assertEquals(500, fx.contents(t.name()).get("user1").get("FIELD4").length());
        }
    }

    @Test
    void serverExtendOnTheStandInFallsBackToClientWithOneWarning() throws Exception {
        assertFalse(fx.target.supportsPipelines(), "the stand-in reports wire version < 8");
        TableSpec t = fx.table("server");
        try (Session s = fx.target.openSession()) {
            s.insertBatch(t.name(), MongoFixture.records(2, 100));
            for (int i = 0; i < 5; i++) {
                assertEquals(
                        Outcome.OK,
                        s.extend(t.name(), "user0000", "FIELD0", "abc", MAX, ExtendMethod.SERVER)
                                .outcome());
            }
        }
        try (Session other = fx.target.openSession()) {
            other.extend(t.name(), "user0001", "FIELD0", "abc", MAX, ExtendMethod.SERVER);
        }
        // A fresh database of the same target (an experiment's clean and baseline modes) does not repeat it.
        try (Target sibling = fx.target.withDatabase("ivs_sibling_warning");
                Session s = sibling.openSession()) {
            s.insertBatch(t.name(), MongoFixture.records(1, 100));
            s.extend(t.name(), "user0000", "FIELD0", "abc", MAX, ExtendMethod.SERVER);
            fx.target.dropDatabase("ivs_sibling_warning");
        }
        assertEquals(1, fx.warnings.size(), "one warning per target: " + fx.warnings);
        assertTrue(
                fx.warnings
                        .get(0)
                        .startsWith(
                                "server does not support update pipelines; server-side extends fall back to client-side ones"),
                fx.warnings.get(0));
        assertEquals(115, fx.contents(t.name()).get("user0000").get("FIELD0").length());
        assertEquals(103, fx.contents(t.name()).get("user0001").get("FIELD0").length());
    }

    @Test
    void serverExtendWithFallbackFailSaysWhy() throws Exception {
        try (MongoFixture strict = new MongoFixture(Map.of("extendFallback", "fail"))) {
            TableSpec t = strict.table("strict");
            try (Session s = strict.target.openSession()) {
                s.insertBatch(t.name(), MongoFixture.records(1, 100));
                TargetException e = assertThrows(
                        TargetException.class,
                        () -> s.extend(t.name(), "user0000", "FIELD0", "abc", MAX, ExtendMethod.SERVER));
                assertTrue(e.getMessage().contains("server does not support update pipelines"), e.getMessage());
                assertFalse(e.connectionLost());
                assertEquals(
                        100,
                        strict.contents(t.name()).get("user0000").get("FIELD0").length());
                assertEquals(
                        Outcome.OK,
                        s.extend(t.name(), "user0000", "FIELD0", "abc", MAX, ExtendMethod.CLIENT)
                                .outcome(),
                        "client extends are unaffected");
            }
            assertTrue(strict.warnings.isEmpty());
        }
    }

    @Test
    void fieldLengthsGrowByExactlyTheUnskippedExtends() throws Exception {
        TableSpec t = fx.table("sum");
        int records = 10;
        int suffixLength = 100;
        long cap = 700;
        try (Session s = fx.target.openSession()) {
            s.insertBatch(t.name(), MongoFixture.records(records, 100));
            long initial = totalLength(fx.contents(t.name()));
            assertEquals(records * 10 * 100L, initial);
            Random random = new Random(42);
            int n = 400;
            int skipped = 0;
            for (int i = 0; i < n; i++) {
                // skewed keys so some records reach the cap and later extends of them are skipped
                String key = MongoFixture.key(Math.min(random.nextInt(records), random.nextInt(records)));
                String field = MongoFixture.FIELDS.get(random.nextInt(3));
                OpResult r = s.extend(
                        t.name(),
                        key,
                        field,
                        "s".repeat(suffixLength),
                        cap,
                        i % 2 == 0 ? ExtendMethod.CLIENT : ExtendMethod.SERVER);
                if (r.outcome() == Outcome.SKIPPED) {
                    skipped++;
                } else {
                    assertEquals(Outcome.OK, r.outcome());
                }
            }
            assertTrue(skipped > 0 && skipped < n, "the test must exercise both paths: skipped=" + skipped);
            Map<String, Map<String, String>> after = fx.contents(t.name());
            assertEquals(initial + (long) (n - skipped) * suffixLength, totalLength(after));
            for (Map<String, String> fields : after.values()) {
                for (String v : fields.values()) {
                    assertTrue(v.length() <= cap && v.length() >= 100, "no field passes the cap or shrinks");
                }
            }
        }
    }

    @Test
    void sameOperationsGiveTheSameDocumentsWhateverTheSequence() throws Exception {
        for (long seed : new long[] {1, 7, 123456789}) {
            TableSpec a = fx.table("detA");
            TableSpec b = fx.table("detB");
            Map<String, Map<String, String>> model = applyOps(a.name(), seed);
            assertEquals(model, applyOps(b.name(), seed), "the model is itself deterministic");
            Map<String, Map<String, String>> first = fx.contents(a.name());
            assertEquals(model, first, "the target stores exactly what the operations say (seed " + seed + ")");
            assertEquals(checksum(first), checksum(fx.contents(b.name())), "seed " + seed);
        }
    }

    @Test
    void documentsPastSixteenMebibytesAreErrorOutcomes() throws Exception {
        TableSpec t = fx.table("big");
        int limit = fx.target.maxBsonObjectSize();
        assertEquals(16 * 1024 * 1024, limit);
        String huge = "h".repeat(limit + 1);
        try (Session s = fx.target.openSession()) {
            assertTooLarge(s.insert(t.name(), "huge", Map.of("FIELD0", huge)));
            s.insert(t.name(), "user1", MongoFixture.fields("user1", 100));
            assertTooLarge(s.update(t.name(), "user1", Map.of("FIELD1", huge)));

            // A field just under the limit, then an extend that would push it over: refused before sending.
            String nearly = "n".repeat(limit - 1000);
            assertEquals(
                    Outcome.OK,
                    s.insert(t.name(), "near", Map.of("FIELD0", nearly)).outcome());
            for (ExtendMethod method : ExtendMethod.values()) {
                fx.commands.clear();
                assertTooLarge(s.extend(t.name(), "near", "FIELD0", "e".repeat(2000), Long.MAX_VALUE, method));
                assertFalse(fx.commands.contains("update"), method + ": " + fx.commands);
            }
            Map<String, String> out = new HashMap<>();
            s.read(t.name(), "near", null, out);
            assertEquals(limit - 1000, out.get("FIELD0").length(), "unchanged");

            TargetException batch = assertThrows(
                    TargetException.class,
                    () -> s.insertBatch(
                            t.name(),
                            List.of(
                                    new Record("ok", Map.of("FIELD0", "a")),
                                    new Record("huge", Map.of("FIELD0", huge)))));
            assertTrue(batch.getMessage().contains("document exceeds 16MB"), batch.getMessage());
            assertEquals(2, fx.target.countRecords(t.name()), "nothing of that batch was sent");
        }
    }

    @Test
    void environmentNamesTheStandInAndCountersAreHonest() throws Exception {
        Map<String, Object> env = fx.target.environment();
        assertEquals("MongoDB", env.get("product"));
        assertNotNull(env.get("serverVersion"));
        assertEquals(16 * 1024 * 1024, env.get("maxBsonObjectSize"));
        assertEquals(false, env.get("updatePipelines"));
        assertTrue(String.valueOf(env.get("standIn")).contains("mongo-java-server"), env.toString());
        Map<String, Double> counters = fx.target.snapshot();
        assertTrue(
                counters.keySet().stream().noneMatch(k -> k.startsWith("opcounters.")),
                "the stand-in has no opcounters, so none are invented: " + counters);
        assertTrue((fx.target.kindOf("connections.current") == CounterKind.GAUGE));
        assertTrue((fx.target.kindOf("mem.resident") == CounterKind.GAUGE));
        assertFalse((fx.target.kindOf("opcounters.query") == CounterKind.GAUGE));
        assertFalse((fx.target.kindOf("wiredTiger.cache.bytes_read_into_cache") == CounterKind.GAUGE));
        assertEquals("MONGODB", fx.target.kind().names().get(0));
    }

    @Test
    void anotherDatabaseOnTheSameSettings() throws Exception {
        String name = "ivs_mongo_test_" + Long.toHexString(System.nanoTime());
        fx.target.createDatabase(name, true);
        try (Target other = fx.target.withDatabase(name)) {
            TableSpec t = new TableSpec("usertable", "YCSB_KEY", MongoFixture.FIELDS, MAX, null);
            other.createTable(t);
            try (Session s = other.openSession()) {
                s.insertBatch("usertable", MongoFixture.records(3, 10));
            }
            assertEquals(3, other.countRecords("usertable"));
            other.createTable(t);
            assertEquals(0, other.countRecords("usertable"), "createTable drops first");
            try (Session s = other.openSession()) {
                s.insertBatch("usertable", MongoFixture.records(2, 10));
            }
        }
        try (Target again = fx.target.withDatabase(name)) {
            assertEquals(2, again.countRecords("usertable"), "the data lives in that database");
            fx.target.createDatabase(name, true);
            assertEquals(0, again.countRecords("usertable"), "dropFirst drops it");
        }
    }

    @Test
    void badUrlsOptionsAndUnreachableServers() {
        TargetException noDb =
                assertThrows(TargetException.class, () -> MongoTarget.open(config("mongodb://127.0.0.1:1", Map.of())));
        assertTrue(noDb.getMessage().contains("names no database"), noDb.getMessage());

        TargetException unknown = assertThrows(
                TargetException.class,
                () -> MongoTarget.open(config(TestServers.mongoUrl(), Map.of("writeConcern", "w1", "bogus", "1"))));
        assertTrue(unknown.getMessage().contains("'bogus'"), unknown.getMessage());

        // Nothing listens on port 1: the first round trip (at open) fails and says the connection is gone.
        TargetException down = assertThrows(
                TargetException.class,
                () -> MongoTarget.open(config(
                        "mongodb://127.0.0.1:1/ivsbench?serverSelectionTimeoutMS=300&connectTimeoutMS=300", Map.of())));
        assertTrue(down.connectionLost(), down.toString());
    }

    @Test
    void optionsReachTheDriver() throws Exception {
        try (MongoFixture tuned = new MongoFixture(Map.of(
                "writeConcern",
                "w1",
                "readPreference",
                "primary",
                "tls",
                "false",
                "extendFallback",
                "client",
                "lowercaseFields",
                "true"))) {
            Map<String, Object> env = tuned.target.environment();
            assertTrue(String.valueOf(env.get("writeConcern")).contains("\"w\": 1"), env.toString());
            assertEquals("primary", env.get("readPreference"));
            TableSpec t = tuned.table("opts");
            try (Session s = tuned.target.openSession()) {
                assertTrue(s.insert(t.name(), "k", Map.of("FIELD0", "v")).isOk());
            }
        }
    }

    // ---- helpers

    /** Applies a seeded mix of every write to a table and keeps an in-memory model of what it must contain. */
    private Map<String, Map<String, String>> applyOps(String table, long seed) throws TargetException {
        Map<String, Map<String, String>> model = new TreeMap<>();
        Random random = new Random(seed);
        try (Session s = fx.target.openSession()) {
            List<Record> load = MongoFixture.records(15, 20);
            s.insertBatch(table, load);
            for (Record r : load) {
                model.put(r.key(), new HashMap<>(r.fields()));
            }
            for (int i = 0; i < 200; i++) {
                String key = MongoFixture.key(random.nextInt(20));
                String field = MongoFixture.FIELDS.get(random.nextInt(10));
                String value = MongoFixture.value(seed + ":" + i, 1 + random.nextInt(30));
                Map<String, String> rec = model.get(key);
                switch (random.nextInt(4)) {
                    case 0 -> {
                        OpResult r = s.extend(table, key, field, value, 120, ExtendMethod.CLIENT);
                        if (rec != null && rec.get(field).length() + value.length() <= 120) {
                            assertEquals(Outcome.OK, r.outcome());
                            rec.put(field, rec.get(field) + value);
                        } else {
                            assertTrue(r.outcome() == Outcome.SKIPPED || r.outcome() == Outcome.ABORTED);
                        }
                    }
                    case 1 -> {
                        OpResult r = s.update(table, key, Map.of(field, value));
                        if (rec != null) {
                            rec.put(field, value);
                        }
                        assertEquals(rec != null, r.isOk());
                    }
                    case 2 -> {
                        Map<String, String> fields = MongoFixture.fields(key + seed + i, 5);
                        OpResult r = s.insert(table, key, fields);
                        assertEquals(rec == null, r.isOk());
                        if (rec == null) {
                            model.put(key, new HashMap<>(fields));
                        }
                    }
                    default -> {
                        OpResult r = s.delete(table, key);
                        assertEquals(rec != null, r.isOk());
                        model.remove(key);
                    }
                }
            }
        }
        return model;
    }

    private static String checksum(Map<String, Map<String, String>> contents) throws Exception {
        MessageDigest digest = MessageDigest.getInstance("SHA-256");
        for (Map.Entry<String, Map<String, String>> rec : contents.entrySet()) {
            digest.update(rec.getKey().getBytes(StandardCharsets.UTF_8));
            for (Map.Entry<String, String> f : new TreeMap<>(rec.getValue()).entrySet()) {
                digest.update((f.getKey() + "=" + f.getValue() + "\n").getBytes(StandardCharsets.UTF_8));
            }
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    private static long totalLength(Map<String, Map<String, String>> contents) {
        long total = 0;
        for (Map<String, String> fields : contents.values()) {
            for (String v : fields.values()) {
                total += v.length();
            }
        }
        return total;
    }

    private static void assertTooLarge(OpResult r) {
        assertEquals(Outcome.ERROR, r.outcome(), r.toString());
        assertEquals("document exceeds 16MB", r.reason());
    }

    /** User and password (from <password>, <passwordEnv> or <passwordFile>) reach the driver, in authSource. */
    @Test
    void credentialsReachTheDriver() {
        for (String[] c : new String[][] {{"", "ivsbench"}, {"?authSource=admin", "admin"}}) {
            MongoCredential[] seen = new MongoCredential[1];
            TargetConfig config = new TargetConfig(
                    "MONGODB",
                    null,
                    TestServers.mongoUrl().replaceAll("/[^/]*$", "/ivsbench") + c[0],
                    "bench",
                    "s3cret",
                    null,
                    false,
                    new LinkedHashMap<>());
            try (Target t = MongoTarget.open(
                    config, new MongoTarget.TestHooks(b -> seen[0] = b.build().getCredential(), w -> {}))) {
                // The stand-in may accept it without checking; a real server would authenticate here.
            } catch (TargetException refused) {
                // A server that checks credentials refuses this made-up user: fine, the settings were seen.
            }
            assertNotNull(seen[0], "a credential was configured");
            assertEquals("bench", seen[0].getUserName());
            assertEquals(c[1], seen[0].getSource());
            assertEquals("s3cret", new String(seen[0].getPassword()));
        }
    }

    private static TargetConfig config(String url, Map<String, String> options) {
        return new TargetConfig("MONGODB", null, url, null, null, null, false, new LinkedHashMap<>(options));
    }
}
