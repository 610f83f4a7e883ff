package org.ivsbench.db.mongo;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.mongodb.MongoCommandException;
import com.mongodb.ServerAddress;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonMaximumSizeExceededException;
import org.bson.BsonString;
import org.bson.Document;
import org.bson.RawBsonDocument;
import org.bson.codecs.DocumentCodec;
import org.junit.jupiter.api.Test;

import org.ivsbench.db.CounterKind;
import org.ivsbench.monitor.CounterSelection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** FieldNames, BsonSizes, ServerCounters and MongoErrors without a server. */
class HelpersTest {

    @Test
    void fieldNamesMapOnlyNumberedFields() {
        FieldNames lower = new FieldNames(true);
        assertEquals("field0", lower.toDocument("FIELD0"));
        assertEquals("field12", lower.toDocument("FIELD12"));
        assertEquals("FIELD3", lower.fromDocument("field3"));
        assertEquals("FIELDX", lower.toDocument("FIELDX"));
        assertEquals("FIELD", lower.toDocument("FIELD"));
        assertEquals("other", lower.fromDocument("other"));
        FieldNames verbatim = new FieldNames(false);
        assertEquals("FIELD0", verbatim.toDocument("FIELD0"));
        assertEquals("field0", verbatim.fromDocument("field0"));
    }

    @Test
    void bsonSizeIsExactForStringDocuments() {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("field0", "plain ascii");
        fields.put("field1", "é and 漢 and 😀");
        fields.put("field2", "");
        Document doc = new Document("_id", "user42");
        fields.forEach(doc::append);
        long encoded =
                new RawBsonDocument(doc, new DocumentCodec()).getByteBuffer().remaining();
        assertEquals(encoded, BsonSizes.document("user42", fields));
        assertEquals("é and 漢 and 😀".getBytes(StandardCharsets.UTF_8).length, BsonSizes.utf8Length("é and 漢 and 😀"));
        assertTrue(BsonSizes.minimalDocumentWith("user42", "field0", 11) < encoded);
    }

    @Test
    void serverStatusIsFlattenedAndGaugesAreKnown() {
        Document status = Document.parse(
                """
                {"opcounters": {"insert": 5, "query": 7, "update": 11, "delete": 1, "getmore": 0, "command": 40},
                 "connections": {"current": 3, "available": 100},
                 "mem": {"resident": 120, "virtual": 2000},
                 "network": {"bytesIn": {"$numberLong": "123456789012"}, "bytesOut": 2, "numRequests": 9},
                 "wiredTiger": {"cache": {"bytes read into cache": 4096, "bytes written from cache": 8192,
                                          "pages read into cache": 2, "maximum bytes configured": 1073741824,
                                          "bytes currently in the cache": 5000, "not a number": "x"}},
                 "storageEngine": {"name": "wiredTiger"}}""");
        Map<String, Double> c = ServerCounters.from(status);
        assertEquals(7.0, c.get("opcounters.query"));
        assertEquals(40.0, c.get("opcounters.command"));
        assertEquals(123456789012.0, c.get("network.bytesIn"));
        assertEquals(4096.0, c.get("wiredTiger.cache.bytes_read_into_cache"));
        assertEquals(8192.0, c.get("wiredTiger.cache.bytes_written_from_cache"));
        assertEquals(2.0, c.get("wiredTiger.cache.pages_read_into_cache"));
        assertEquals(3.0, c.get("connections.current"));
        assertEquals(120.0, c.get("mem.resident"));
        assertFalse(c.containsKey("connections.available"), "only the chosen names");
        assertFalse(c.containsKey("wiredTiger.cache.pages_written_from_cache"), "absent stays absent");
        assertTrue(ServerCounters.GAUGE_NAMES.containsAll(List.of(
                "connections.current",
                "mem.resident",
                "wiredTiger.cache.bytes_currently_in_the_cache",
                "wiredTiger.cache.maximum_bytes_configured")));
        assertFalse(ServerCounters.GAUGE_NAMES.contains("opcounters.insert"));
        // Lock queues and WiredTiger tickets are levels; evictions are running totals.
        Document busy = Document.parse(
                """
                {"globalLock": {"currentQueue": {"total": 7, "readers": 3, "writers": 4},
                                "activeClients": {"readers": 2, "writers": 1}},
                 "wiredTiger": {"concurrentTransactions": {"read": {"out": 128, "available": 0, "totalTickets": 128},
                                                           "write": {"out": 5, "available": 123}},
                                "cache": {"modified pages evicted": 9, "eviction worker thread evicting pages": 4}}}""");
        Map<String, Double> b = ServerCounters.from(busy);
        assertEquals(7.0, b.get("globalLock.currentQueue.total"));
        assertEquals(4.0, b.get("globalLock.currentQueue.writers"));
        assertEquals(0.0, b.get("wiredTiger.concurrentTransactions.read.available"));
        assertEquals(123.0, b.get("wiredTiger.concurrentTransactions.write.available"));
        assertEquals(4.0, b.get("wiredTiger.cache.eviction_worker_thread_evicting_pages"));
        for (String gauge : List.of(
                "globalLock.currentQueue.total",
                "globalLock.activeClients.readers",
                "wiredTiger.concurrentTransactions.read.available",
                "wiredTiger.concurrentTransactions.write.out",
                "queues.execution.read.available")) {
            assertEquals(CounterKind.GAUGE, ServerCounters.DEFAULTS.get(gauge), gauge);
        }
        assertEquals(CounterKind.COUNTER, ServerCounters.DEFAULTS.get("wiredTiger.cache.modified_pages_evicted"));
        assertEquals(
                Map.of("connections.current", 1.0),
                ServerCounters.from(Document.parse("{\"connections\": {\"current\": 1}, \"process\": \"java\"}")),
                "what the stand-in reports");
    }

    /**
     * A serverStatus with every section the package documentation names: the monitor's default selection
     * must keep every counter the target produces (it once dropped network.numRequests and the block-manager
     * bytes), and name no MongoDB counter the target never produces (it once named mem.virtual).
     */
    @Test
    void monitorDefaultSelectionKeepsExactlyWhatTheTargetProduces() {
        Document status = Document.parse(
                """
                {"opcounters": {"insert": 1, "query": 2, "update": 3, "delete": 4, "getmore": 5, "command": 6},
                 "connections": {"current": 3},
                 "mem": {"resident": 120, "virtual": 2000},
                 "network": {"bytesIn": 10, "bytesOut": 20, "numRequests": 30},
                 "wiredTiger": {
                   "cache": {"bytes read into cache": 1, "bytes written from cache": 2, "pages read into cache": 3,
                             "pages written from cache": 4, "pages requested from the cache": 5,
                             "modified pages evicted": 6, "unmodified pages evicted": 7,
                             "pages evicted by application threads": 8, "bytes currently in the cache": 9,
                             "maximum bytes configured": 10, "tracked dirty bytes in the cache": 11,
                             "eviction worker thread evicting pages": 14, "pages queued for urgent eviction": 15},
                   "block-manager": {"bytes read": 12, "bytes written": 13},
                   "concurrentTransactions": {"read": {"out": 1, "available": 127}, "write": {"out": 2, "available": 126}}},
                 "globalLock": {"currentQueue": {"total": 0, "readers": 0, "writers": 0},
                                "activeClients": {"readers": 1, "writers": 0}},
                 "queues": {"execution": {"read": {"out": 1, "available": 7}, "write": {"out": 0, "available": 8}}}}""");
        Map<String, Double> produced = ServerCounters.from(status);
        assertEquals(
                ServerCounters.DEFAULTS.keySet(), produced.keySet(), "a full serverStatus yields every listed name");
        for (String documented : List.of(
                "network.numRequests",
                "wiredTiger.block-manager.bytes_read",
                "wiredTiger.block-manager.bytes_written",
                "wiredTiger.cache.pages_evicted_by_application_threads",
                "wiredTiger.cache.tracked_dirty_bytes_in_the_cache",
                "opcounters.getmore",
                "mem.resident")) {
            assertTrue(produced.containsKey(documented), documented);
        }
        CounterSelection selection = CounterSelection.defaults(new MongoKind());
        for (String name : produced.keySet()) {
            assertTrue(selection.includes(name), name + " is produced but the monitor drops it");
            assertEquals(
                    ServerCounters.GAUGE_NAMES.contains(name),
                    ServerCounters.DEFAULTS.get(name) == CounterKind.GAUGE,
                    name + ": the kind's default and the target disagree on gauge or counter");
        }
        assertFalse(produced.containsKey("mem.virtual"));
        for (String name : selection.names()) {
            assertTrue(produced.containsKey(name), name + " is selected but never produced");
        }
        assertTrue(selection.prefixes().isEmpty(), "a MongoDB prefix would select names beyond the list");
    }

    @Test
    void tooLargeErrorsOfDriverAndServerAreRecognised() {
        assertTrue(MongoErrors.isTooLarge(new BsonMaximumSizeExceededException("Payload document size is larger")));
        assertTrue(MongoErrors.isTooLarge(command(10334, "BSONObjectTooLarge", "object to insert too large")));
        assertTrue(
                MongoErrors.isTooLarge(command(17419, "", "Resulting document after update is larger than 16777216")));
        assertFalse(MongoErrors.isTooLarge(command(11000, "DuplicateKey", "E11000 duplicate key")));
        assertFalse(MongoErrors.isTooLarge(new IllegalStateException("document too large")), "only driver types");
    }

    @Test
    void serverExtendStatementHasTheDocumentedShape() {
        // The stand-in cannot run pipelines, so at least pin what is sent to a real MongoDB 4.2+.
        String filter = MongoSession.serverExtendFilter("user1", "field3", 100, 1_600_000)
                .toBsonDocument()
                .toJson();
        assertEquals(
                "{\"$and\": [{\"_id\": \"user1\"}, {\"$expr\": {\"$lte\": [{\"$add\": [{\"$strLenBytes\": "
                        + "{\"$ifNull\": [\"$field3\", \"\"]}}, 100]}, 1600000]}}]}",
                filter);
        String pipeline = MongoSession.serverExtendPipeline("field3", "$notAPath")
                .get(0)
                .toBsonDocument()
                .toJson();
        assertEquals(
                "{\"$set\": {\"field3\": {\"$concat\": [{\"$ifNull\": [\"$field3\", \"\"]}, "
                        + "{\"$literal\": \"$notAPath\"}]}}}",
                pipeline);
    }

    private static MongoCommandException command(int code, String name, String message) {
        BsonDocument reply = new BsonDocument("ok", new BsonInt32(0))
                .append("code", new BsonInt32(code))
                .append("codeName", new BsonString(name))
                .append("errmsg", new BsonString(message));
        return new MongoCommandException(reply, new ServerAddress());
    }
}
