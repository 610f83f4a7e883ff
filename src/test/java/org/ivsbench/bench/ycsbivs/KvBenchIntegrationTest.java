package org.ivsbench.bench.ycsbivs;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.apache.commons.statistics.distribution.BetaDistribution;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import org.ivsbench.bench.ycsbivs.SectionRuns.Run;
import org.ivsbench.bench.ycsbivs.procedures.SectionKeys;
import org.ivsbench.stats.PhaseSummary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * KVBench's workloads I-V as shipped (config/workloads/kvbench_*.xml, from Tectonic's public specifications) on
 * SQLite and MariaDB (InnoDB) through the real engine: each operation's outcome against the table, each type's share
 * within a binomial bound, and the live set against the table at the end.
 */
class KvBenchIntegrationTest {
    @TempDir
    Path tmp;

    private SectionRuns runs() {
        return new SectionRuns(tmp);
    }

    static List<String> targets() {
        return SectionRuns.targets();
    }

    /**
     * KVBench I: a fifth non-empty point reads, four fifths empty ones; every read finds what it is meant to (its
     * record, or none), and nothing changes the table.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void kvbenchIReadsFindTheirRecordsAndItsEmptyReadsFindNone(String target) throws Exception {
        Run r = runs().run(runs().shipped("kvbench_i.xml", target));

        SectionRuns.mixAsSpecified(r, List.of(2000L), List.of(Map.of("ReadRecord", 0.2, "EmptyReadRecord", 0.8)));
        assertEquals(2000, r.table().size(), "reads only");
        for (String key : r.table()) {
            assertEquals(255, key.length(), key);
        }
        for (String call : r.calls()) {
            String[] parts = call.split(" ", 3);
            assertEquals("read", parts[0], call);
            assertEquals(
                    parts[1].endsWith("~"), !r.table().contains(parts[1]), "empty reads probe absent keys: " + call);
        }
    }

    /**
     * KVBench II: inserts, point deletes, empty point reads and updates interleaved on one section; every delete and
     * update finds a live record, every empty read finds none, and the live set is the table at the end.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void kvbenchIIChurnsTheLiveKeysAndEveryOperationFindsWhatItMeans(String target) throws Exception {
        Run r = runs().run(runs().shipped("kvbench_ii.xml", target));

        SectionRuns.mixAsSpecified(
                r,
                List.of(9000L),
                List.of(Map.of(
                        "InsertRecord", 4 / 9.0,
                        "DeleteRecord", 1 / 9.0,
                        "EmptyReadRecord", 1.5 / 9,
                        "UpdateRecord", 2.5 / 9)));
        Set<String> deleted = new HashSet<>();
        long inserts = 0;
        for (String call : r.calls()) {
            String[] parts = call.split(" ", 3);
            switch (parts[0]) {
                case "insert" -> inserts++;
                case "delete" -> assertTrue(deleted.add(parts[1]), "deleted twice: " + call);
                case "update" -> assertFalse(deleted.contains(parts[1]), "updated a deleted key: " + call);
                case "read" -> assertFalse(r.table().contains(parts[1]), "an empty read of a present key: " + call);
                default -> throw new AssertionError(call);
            }
        }
        SectionKeys s = r.module().section("kv").orElseThrow();
        assertEquals(1000 + inserts - deleted.size(), r.table().size());
        assertEquals(r.table().size(), s.live().liveCount(), "the live set is the table's key set");
        // the specification's 32-byte keys and values (its updates' 512-byte values are not modelled: 32 too)
        r.valueBytes().forEach((key, bytes) -> {
            assertEquals(32, key.length(), key);
            assertEquals(32, bytes, key);
        });
    }

    /**
     * KVBench III: half updates, a quarter non-empty and a quarter empty point reads; the updates and the non-empty
     * reads choose their keys by beta(0.1, 5) over the keys in insert order (key-number order here), so the share of
     * them that lands on the first tenth of the loaded keys is the beta distribution's F(0.1) (Commons Statistics).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void kvbenchIIIUpdatesAndReadsFavourTheFirstKeysAndItsEmptyReadsFindNone(String target) throws Exception {
        Run r = runs().run(runs().shipped("kvbench_iii.xml", target));

        SectionRuns.mixAsSpecified(
                r, List.of(2000L), List.of(Map.of("UpdateRecord", 0.5, "ReadRecord", 0.25, "EmptyReadRecord", 0.25)));
        SectionKeys s = r.module().section("kv").orElseThrow();
        Map<String, Long> number = new HashMap<>();
        for (long n = 0; n < 2000; n++) {
            number.put(s.key(n), n);
        }
        assertEquals(number.keySet(), r.table(), "updates and reads only: the loaded keys");
        long chosen = 0;
        long firstTenth = 0;
        for (String call : r.calls()) {
            String[] parts = call.split(" ", 3);
            assertTrue(parts[0].equals("read") || parts[0].equals("update"), call);
            if (parts[1].endsWith("~")) {
                assertEquals("read", parts[0], call);
                assertFalse(r.table().contains(parts[1]), "an empty read of a present key: " + call);
                continue;
            }
            Long n = number.get(parts[1]);
            assertTrue(n != null, "a key the section loaded: " + call);
            chosen++;
            firstTenth += n < 200 ? 1 : 0;
        }
        double p = BetaDistribution.of(0.1, 5).cumulativeProbability(0.1);
        assertEquals(p, (double) firstTenth / chosen, 5 * Math.sqrt(p * (1 - p) / chosen), "on the first tenth");
    }

    /**
     * KVBench IV: half updates by beta(0.1, 5), half range deletes of one key each (start = end); replayed on a model
     * of the table, every range delete names one live key and every update a live one, about half the keys are gone at
     * the end, and the model, the live set and the table agree.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void kvbenchIVRangeDeletesTakeOneLiveKeyEachAndNoUpdateMeetsADeletedOne(String target) throws Exception {
        Run r = runs().run(runs().shipped("kvbench_iv.xml", target));

        SectionRuns.mixAsSpecified(r, List.of(2000L), List.of(Map.of("UpdateRecord", 0.5, "RangeDeleteRecord", 0.5)));
        SectionKeys s = r.module().section("kv").orElseThrow();
        TreeSet<String> model = new TreeSet<>();
        for (long n = 0; n < 2000; n++) {
            model.add(s.key(n));
        }
        long rangeDeletes = 0;
        for (String call : r.calls()) {
            String[] parts = call.split(" ", 3);
            switch (parts[0]) {
                case "update" -> assertTrue(model.contains(parts[1]), "updated a key that is not live: " + call);
                case "deleteBetween" -> {
                    String[] ends = parts[2].split(" ");
                    assertEquals(parts[1], ends[0], "one key: the start is the end: " + call);
                    assertTrue(model.remove(parts[1]), "deleted a key that is not live: " + call);
                    rangeDeletes++;
                }
                default -> throw new AssertionError(call);
            }
        }
        assertEquals(
                r.phases()
                        .get(0)
                        .transactions()
                        .get("RangeDeleteRecord")
                        .counts()
                        .ok(),
                rangeDeletes);
        assertEquals(rangeDeletes, r.module().rangeRows().rowsDeleted(), "each deleted exactly its one record");
        assertEquals(model, r.table(), "the model is the table");
        assertEquals(model.size(), s.live().liveCount(), "the live set is the table's key set");
        assertEquals(rangeDeletes, s.live().goneCount());
    }

    /**
     * KVBench V: the section starts empty; 95 % inserts whose keys take one of the 10 hot prefixes of 100 with
     * probability 0.7, interleaved with 5 % point reads of the keys inserted so far, every one found.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void kvbenchVInsertsSeventyPerCentUnderTheHotPrefixesAndItsReadsFindTheirRecords(String target) throws Exception {
        Run r = runs().run(runs().shipped("kvbench_v.xml", target));

        PhaseSummary phase = r.phases().get(0);
        assertEquals(2000, phase.counts().total());
        assertEquals(
                0,
                phase.counts().aborted() + phase.counts().error(),
                phase.counts().toString());
        // a read drawn before the first insert has no live key: skipped, nothing sent (5 in a row: p = 0.05^5)
        assertTrue(phase.counts().skipped() < 5, phase.counts().toString());
        Set<String> inserted = new HashSet<>();
        long reads = 0;
        for (String call : r.calls()) {
            String[] parts = call.split(" ", 3);
            switch (parts[0]) {
                case "insert" -> assertTrue(inserted.add(parts[1]), call);
                case "read" -> {
                    assertTrue(inserted.contains(parts[1]), "reads a key inserted before: " + call);
                    reads++;
                }
                default -> throw new AssertionError(call);
            }
        }
        assertEquals(phase.transactions().get("ReadRecord").counts().ok(), reads);
        assertEquals(inserted, r.table(), "the table holds the inserts");
        double hot = inserted.stream().filter(k -> k.startsWith("kv/h0")).count() / (double) inserted.size();
        assertEquals(0.7, hot, 5 * Math.sqrt(0.7 * 0.3 / inserted.size()), "hot prefixes h00-h09");
        assertEquals(0.95, inserted.size() / 2000.0, 5 * Math.sqrt(0.95 * 0.05 / 2000), "the inserts' share");
        for (String key : inserted) {
            assertEquals(255, key.length(), key);
        }
    }
}
