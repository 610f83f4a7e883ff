package org.ivsbench.db.jdbc;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.config.TargetConfig;
import org.ivsbench.db.ExtendMethod;
import org.ivsbench.db.Session;
import org.ivsbench.db.TableSpec;
import org.ivsbench.db.Target;
import org.ivsbench.db.Targets;
import org.ivsbench.op.OpResult;
import org.ivsbench.testsupport.TestServers;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * bytesRead / bytesWritten mean the same on every binding: bytes of field values received from the server, and
 * bytes of field values sent to it (guards included). On SQLite in process and on the private MariaDB.
 */
class ValueBytesTest {
    @TempDir
    Path dir;

    @Test
    void sqlite() throws Exception {
        check(TestServers.sqlite(dir.resolve("bytes.db")), null);
    }

    @Test
    void mariadb() throws Exception {
        check(TestServers.mariadb(), "InnoDB");
    }

    private static void check(TargetConfig config, String engine) throws Exception {
        TableSpec table = new TableSpec("bytes_t", "K", List.of("F0", "F1"), 1000, engine);
        try (Target target = Targets.open(config)) {
            target.createTable(table);
            try (Session s = target.openSession()) {
                Map<String, String> values = new LinkedHashMap<>();
                values.put("F0", "a".repeat(100));
                values.put("F1", "b".repeat(50));
                assertBytes(0, 150, s.insert("bytes_t", "k1", values), "insert sends both values");
                assertBytes(150, 0, s.read("bytes_t", "k1", null, new HashMap<>()), "read receives both");
                assertBytes(0, 20, s.update("bytes_t", "k1", Map.of("F1", "c".repeat(20))), "update");
                // CLIENT reads the field (100) and sends the whole grown value (130); SERVER sends the suffix.
                assertExtend(
                        100,
                        130,
                        130,
                        s.extend("bytes_t", "k1", "F0", "x".repeat(30), 1000, ExtendMethod.CLIENT),
                        "client extend");
                assertExtend(
                        0,
                        30,
                        -1,
                        s.extend("bytes_t", "k1", "F0", "y".repeat(30), 1000, ExtendMethod.SERVER),
                        "server extend");
                // A capped client extend read the field and sent nothing; a capped server extend sent the
                // suffix, which the server's guard refused: sent is sent.
                assertExtend(
                        160,
                        0,
                        160,
                        s.extend("bytes_t", "k1", "F0", "z".repeat(900), 1000, ExtendMethod.CLIENT),
                        "capped client extend");
                assertExtend(
                        0,
                        900,
                        -1,
                        s.extend("bytes_t", "k1", "F0", "z".repeat(900), 1000, ExtendMethod.SERVER),
                        "capped server extend");
            }
            target.dropTable("bytes_t");
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
