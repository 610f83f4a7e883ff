package org.ivsbench.db.mongo;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.ivsbench.db.ExtendMethod;
import org.ivsbench.db.Session;
import org.ivsbench.db.TableSpec;
import org.ivsbench.op.OpResult;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * bytesRead / bytesWritten on MongoDB (the stand-in): bytes of field values received, and bytes of field values
 * sent, guards included. The client extend's guard is the old value, so it sends the old value and the grown
 * one. (The stand-in has no update pipelines: SERVER falls back to CLIENT and counts the same.)
 */
class ValueBytesMongoTest {

    @Test
    void bytesAreFieldValuesSentAndReceived() throws Exception {
        try (MongoFixture f = new MongoFixture()) {
            TableSpec t = f.table("bytes");
            try (Session s = f.target.openSession()) {
                Map<String, String> values = MongoFixture.fields("user1", 100);
                assertBytes(0, 1000, s.insert(t.name(), "user1", values), "insert sends ten values of 100");
                assertBytes(1000, 0, s.read(t.name(), "user1", null, new HashMap<>()), "read receives them");
                assertBytes(0, 20, s.update(t.name(), "user1", Map.of("FIELD1", "c".repeat(20))), "update");
                // Reads FIELD0 (100), sends it back as the guard (100) with the grown value (130).
                assertExtend(
                        100,
                        230,
                        130,
                        s.extend(t.name(), "user1", "FIELD0", "x".repeat(30), 1_600_000, ExtendMethod.CLIENT),
                        "client extend");
                assertExtend(
                        130,
                        0,
                        130,
                        s.extend(t.name(), "user1", "FIELD0", "x".repeat(30), 140, ExtendMethod.CLIENT),
                        "capped client extend sends nothing");
                // The paper's plain binding: reads FIELD0 (130), sends only the grown value (160), no guard.
                assertExtend(
                        130,
                        160,
                        160,
                        s.extend(t.name(), "user1", "FIELD0", "x".repeat(30), 1_600_000, ExtendMethod.CLIENT_PLAIN),
                        "plain client extend");
                Map<String, String> out = new HashMap<>();
                s.read(t.name(), "user1", List.of("FIELD0"), out);
                assertEquals(160, out.get("FIELD0").length());
            }
        }
    }

    static void assertBytes(long read, long written, OpResult r, String what) {
        assertEquals(List.of(read, written), List.of(r.bytesRead(), r.bytesWritten()), what + ": " + r);
    }

    /** An extend's bytes and its size: the field's length after it where the client saw the value, else -1. */
    static void assertExtend(long read, long written, long size, OpResult r, String what) {
        assertEquals(
                List.of(read, written, size), List.of(r.bytesRead(), r.bytesWritten(), r.sizeBytes()), what + ": " + r);
    }
}
