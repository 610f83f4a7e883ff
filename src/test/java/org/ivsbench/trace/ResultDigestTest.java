package org.ivsbench.trace;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.ivsbench.op.OpResult;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

class ResultDigestTest {
    /**
     * Known answers, computed outside Java over the bytes docs/trace.md defines (every string as its UTF-8 byte
     * length, ':', its bytes; the hex of the first 16 bytes of SHA-256), e.g. for the scan
     * {@code printf '2:OK1:21:11:F1:x1:11:F2:yz' | sha256sum | cut -c1-32}; the others with Python's hashlib.
     */
    @Test
    void digestsMatchAnIndependentComputation() {
        Map<String, String> record = new HashMap<>();
        record.put("FIELD1", "b\u00e9"); // two UTF-8 bytes
        record.put("FIELD0", "a");
        record.put("FIELD2", null); // hashed as "\0null"
        // 2:OK 1:3 6:FIELD0 1:a 6:FIELD1 3:b\xc3\xa9 6:FIELD2 5:\x00null
        String read = ResultDigest.ofRead(OpResult.ok(), record);
        assertEquals("e5008380f4838e772e01f12833c89987", read);
        // 7:ABORTED (the record is not hashed when the read did not succeed)
        String notFound = ResultDigest.ofRead(OpResult.aborted("not found"), Map.of("x", "y"));
        assertEquals("d1f2881b061b5d0bfb6116fc0c56d1bd", notFound);
        // 2:OK 1:2 1:1 1:F 1:x 1:1 1:F 2:yz
        String scan = ResultDigest.ofScan(OpResult.ok(), List.of(Map.of("F", "x"), Map.of("F", "yz")));
        assertEquals("9a6851998bd7cc7172a87ae092978824", scan);
        // Terminal 0: "0:" + read, "1:" + notFound, each length-prefixed; terminal 1: "7:" + scan.
        ResultDigest t0 = new ResultDigest();
        ResultDigest t1 = new ResultDigest();
        assertEquals("e3b0c44298fc1c149afbf4c8996fb924", t0.terminalDigest(), "SHA-256 of nothing");
        t0.add(0, read);
        t1.add(7, scan);
        t0.add(1, notFound);
        assertEquals("41c24fa18d48434e2f81482163b65e51", t0.terminalDigest());
        assertEquals("48a831fa1305b34fc40dc791882e8f61", t1.terminalDigest());
        // "0=" + t0, "1=" + t1, each length-prefixed, in terminal order whatever the map's.
        assertEquals(
                "9f2815741b2fd0fb9498566cfdcd1712",
                ResultDigest.total(Map.of(1, t1.terminalDigest(), 0, t0.terminalDigest())));
    }

    @Test
    void aReadHashDoesNotDependOnFieldOrderButOnEveryValue() {
        Map<String, String> ab = new LinkedHashMap<>();
        ab.put("a", "1");
        ab.put("b", "2");
        Map<String, String> ba = new LinkedHashMap<>();
        ba.put("b", "2");
        ba.put("a", "1");
        assertEquals(ResultDigest.ofRead(OpResult.ok(), ab), ResultDigest.ofRead(OpResult.ok(), ba));
        assertNotEquals(
                ResultDigest.ofRead(OpResult.ok(), ab), ResultDigest.ofRead(OpResult.ok(), Map.of("a", "1", "b", "3")));
    }

    @Test
    void concatenationCannotMakeTwoResultsAlike() {
        assertNotEquals(
                ResultDigest.ofRead(OpResult.ok(), Map.of("a", "bc")),
                ResultDigest.ofRead(OpResult.ok(), Map.of("ab", "c")));
        assertNotEquals(
                ResultDigest.ofScan(OpResult.ok(), List.of(Map.of("a", "1"), Map.of("a", "2"))),
                ResultDigest.ofScan(OpResult.ok(), List.of(Map.of("a", "2"), Map.of("a", "1"))));
    }

    @Test
    void notFoundIsNotAnEmptyRecord() {
        assertNotEquals(
                ResultDigest.ofRead(OpResult.aborted("not found"), Map.of()),
                ResultDigest.ofRead(OpResult.ok(), Map.of()));
    }

    @Test
    void theTotalDependsOnEachTerminalsReadsInOrder() {
        ResultDigest one = new ResultDigest();
        one.add(0, "x");
        one.add(1, "y");
        ResultDigest swapped = new ResultDigest();
        swapped.add(0, "y");
        swapped.add(1, "x");
        assertNotEquals(one.terminalDigest(), swapped.terminalDigest());
        assertEquals(
                ResultDigest.total(Map.of(0, one.terminalDigest(), 1, "z")),
                ResultDigest.total(Map.of(1, "z", 0, one.terminalDigest())));
        assertNotEquals(ResultDigest.total(Map.of(0, "a", 1, "b")), ResultDigest.total(Map.of(0, "b", 1, "a")));
    }
}
