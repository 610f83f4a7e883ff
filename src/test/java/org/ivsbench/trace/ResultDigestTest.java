package org.ivsbench.trace;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.ivsbench.op.OpResult;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

class ResultDigestTest {
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
