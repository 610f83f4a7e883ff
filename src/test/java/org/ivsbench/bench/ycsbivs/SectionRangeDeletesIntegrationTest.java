package org.ivsbench.bench.ycsbivs;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import org.ivsbench.bench.ycsbivs.SectionRuns.Run;
import org.ivsbench.bench.ycsbivs.procedures.SectionKeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Range deletes within a section on SQLite and MariaDB (InnoDB) through the real engine: a model of the table (the
 * section's loaded keys, named here as docs/sections.md says, then every call the terminal sent replayed) says which
 * records each range delete removes; it must be exactly the live keys it took, the live set must follow, and no
 * later operation may meet a deleted key.
 */
class SectionRangeDeletesIntegrationTest {
    @TempDir
    Path tmp;

    private SectionRuns runs() {
        return new SectionRuns(tmp);
    }

    static List<String> targets() {
        return SectionRuns.targets();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void eachRangeDeleteRemovesExactlyTheLiveKeysItTookWhileTheSectionChurns(String target) throws Exception {
        Run r = runs().run("<parameters>" + runs().connection(target)
                + "<terminals>1</terminals><randomSeed>9</randomSeed><fieldcount>1</fieldcount>"
                + "<fieldlength>10</fieldlength><keyorder>ordered</keyorder>"
                + "<rangelengthdistribution>uniform(min=3, max=3)</rangelengthdistribution>"
                + "<sections><section><name>s</name><records>2000</records></section></sections>"
                + "<monitor><enabled>false</enabled></monitor><transactiontypes>"
                + "<transactiontype><name>DeleteRecord</name></transactiontype>"
                + "<transactiontype><name>InsertRecord</name></transactiontype>"
                + "<transactiontype><name>RangeDeleteRecord</name></transactiontype>"
                + "<transactiontype><name>ReadRecord</name></transactiontype>"
                + "<transactiontype><name>EmptyReadRecord</name></transactiontype></transactiontypes><works>"
                + "<work><name>churn</name><count>3000</count><rate>unlimited</rate><weights>10,30,20,30,10</weights>"
                + "<distribution>zipfian</distribution></work></works></parameters>");
        TreeSet<String> model = SectionRuns.loaded("s", 2000);
        Set<String> gone = new HashSet<>();
        long ranges = 0;
        long rows = 0;
        for (String call : r.calls()) {
            String[] parts = call.split(" ");
            switch (parts[0]) {
                case "delete" -> {
                    assertTrue(model.remove(parts[1]), "deleted a key that was not live: " + call);
                    gone.add(parts[1]);
                }
                case "insert" -> assertTrue(model.add(parts[1]), "inserted a live key: " + call);
                case "read" -> {
                    if (gone.contains(parts[1]) || parts[1].endsWith("~")) {
                        assertFalse(model.contains(parts[1]), "an empty read of a live key: " + call);
                    } else {
                        assertTrue(model.contains(parts[1]), "a read of a key that is not live: " + call);
                    }
                }
                case "deleteBetween" -> {
                    assertTrue(model.contains(parts[1]), "starts at a live key: " + call);
                    assertTrue(model.contains(parts[2]), "ends at a live key: " + call);
                    Set<String> between = model.subSet(parts[1], true, parts[2], true);
                    // the start and the two live keys after it (fewer at the end of the key space)
                    assertEquals(Math.min(3, model.tailSet(parts[1], true).size()), between.size(), call);
                    rows += between.size();
                    gone.addAll(between);
                    between.clear();
                    ranges++;
                }
                default -> throw new AssertionError(call);
            }
        }
        assertEquals(3000, r.phases().get(0).counts().total());
        assertEquals(
                3000,
                r.phases().get(0).counts().ok(),
                "every operation as meant: " + r.phases().get(0).counts());
        assertEquals(ranges, r.module().rangeRows().rangeDeletes());
        assertEquals(rows, r.module().rangeRows().rowsDeleted(), "the server deleted exactly the keys taken");
        assertEquals(model, r.table(), "the model is the table");
        SectionKeys s = r.module().section("s").orElseThrow();
        assertEquals(model.size(), s.live().liveCount(), "the live set is the table's key set");
        assertEquals(gone.size(), s.live().goneCount(), "every deleted key is gone");
        assertTrue(ranges > 400 && rows > 2 * ranges, ranges + " range deletes removed " + rows + " records");
    }

    /**
     * Tectonic's Tec-2, shipped as sections_interleaved.xml: inserts, non-empty and empty point reads, point deletes
     * and range deletes of two keys, interleaved; every operation finds what it means to, and the live set is the
     * table at the end.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void tec2InterleavesPointAndRangeDeletesAndEveryReadFindsWhatItMeans(String target) throws Exception {
        Run r = runs().run(runs().shipped("sections_interleaved.xml", target));

        SectionRuns.mixAsSpecified(
                r,
                List.of(4000L),
                List.of(Map.of(
                        "InsertRecord", 0.5,
                        "ReadRecord", 0.2,
                        "EmptyReadRecord", 0.1,
                        "DeleteRecord", 0.1,
                        "RangeDeleteRecord", 0.1)));
        TreeSet<String> model = SectionRuns.loaded("events", 20000);
        long rangeRows = 0;
        for (String call : r.calls()) {
            String[] parts = call.split(" ");
            switch (parts[0]) {
                case "insert" -> assertTrue(model.add(parts[1]), call);
                case "delete" -> assertTrue(model.remove(parts[1]), "deleted a key that was not live: " + call);
                case "read" -> {
                    // an empty read probes a deleted key or a ~-marked one; a non-empty read a live one (the
                    // outcomes, all OK, say which was which: mixAsSpecified)
                    if (!model.contains(parts[1])) {
                        assertTrue(parts[1].endsWith("~") || parts[1].startsWith("events/"), call);
                    }
                }
                case "deleteBetween" -> {
                    Set<String> between = model.subSet(parts[1], true, parts[2], true);
                    assertEquals(2, between.size(), "selectivity 0.0001 of 20,000 keys: two: " + call);
                    rangeRows += 2;
                    between.clear();
                }
                default -> throw new AssertionError(call);
            }
        }
        assertEquals(rangeRows, r.module().rangeRows().rowsDeleted());
        assertEquals(model, r.table(), "the model is the table");
        SectionKeys s = r.module().section("events").orElseThrow();
        assertEquals(model.size(), s.live().liveCount(), "the live set is the table's key set");
    }
}
