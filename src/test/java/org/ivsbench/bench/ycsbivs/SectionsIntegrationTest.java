package org.ivsbench.bench.ycsbivs;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.IntSummaryStatistics;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

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
 * Sections and live keys on SQLite and MariaDB (InnoDB) through the real engine: every call the terminal sent is
 * recorded, a model of the table replays them, and the database is read back at the end. Count phases, one
 * terminal: exact.
 */
class SectionsIntegrationTest {
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
    void readsAndUpdatesNeverChooseADeletedKey(String target) throws Exception {
        Run r = runs().run("<parameters>" + runs().connection(target)
                + "<terminals>1</terminals><randomSeed>5</randomSeed><fieldcount>1</fieldcount>"
                + "<fieldlength>10</fieldlength><keyorder>ordered</keyorder>"
                + "<sections><section><name>s</name><records>1000</records></section></sections>"
                + "<monitor><enabled>false</enabled></monitor><transactiontypes>"
                + "<transactiontype><name>DeleteRecord</name></transactiontype>"
                + "<transactiontype><name>ReadRecord</name></transactiontype>"
                + "<transactiontype><name>UpdateRecord</name></transactiontype>"
                + "<transactiontype><name>InsertRecord</name></transactiontype></transactiontypes><works>"
                + "<work><name>churn</name><count>3000</count><rate>unlimited</rate><weights>30,40,20,10</weights>"
                + "<distribution>zipfian</distribution></work>"
                + "<work><name>read</name><count>2000</count><rate>unlimited</rate><weights>0,100,0,0</weights>"
                + "<distribution>uniform</distribution></work></works></parameters>");

        assertEquals(3000, r.phases().get(0).counts().total(), "count phases end after exactly their count");
        assertEquals(2000, r.phases().get(1).counts().total());
        Set<String> deleted = new HashSet<>();
        Set<String> inserted = new HashSet<>();
        long reads = 0;
        for (String call : r.calls()) {
            String[] parts = call.split(" ", 3);
            switch (parts[0]) {
                case "delete" -> assertTrue(deleted.add(parts[1]), "a key deleted twice: " + parts[1]);
                case "insert" -> inserted.add(parts[1]);
                case "read", "update" -> {
                    assertFalse(deleted.contains(parts[1]), call + " chose a deleted key");
                    reads += parts[0].equals("read") ? 1 : 0;
                }
                default -> throw new AssertionError(call);
            }
        }
        assertTrue(deleted.size() > 700, "the churn deleted most keys: " + deleted.size());
        // every read found its record in the database: none was ABORTED "not found"
        for (PhaseSummary p : r.phases()) {
            assertEquals(p.counts().total(), p.counts().ok(), p.name() + ": " + p.counts());
        }
        SectionKeys s = r.module().section("s").orElseThrow();
        assertEquals(1000 + inserted.size() - deleted.size(), s.live().liveCount());
        assertEquals(s.live().liveCount(), r.table().size(), "the live set is the table's key set");
        for (long n = 0; n < s.live().nextNumber(); n++) {
            assertEquals(s.live().isLive(n), r.table().contains(s.key(n)), s.key(n));
        }
        assertTrue(reads > 2000, "reads ran: " + reads);
    }

    /**
     * Range reads by their two ends among a section's live keys while deletes and inserts change them: a model of
     * the table (the section's loaded keys, named here as docs/sections.md says, then every call replayed) says how
     * many records each range holds; with a constant length of 20 that is 20, or what is left to the last key.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void rangeReadsByKeysHoldTheirLengthInLiveKeysWhileTheSectionChurns(String target) throws Exception {
        Run r = runs().run("<parameters>" + runs().connection(target)
                + "<terminals>1</terminals><randomSeed>5</randomSeed><fieldcount>1</fieldcount>"
                + "<fieldlength>10</fieldlength><keyorder>ordered</keyorder><scanlength>20</scanlength>"
                + "<rangelengthdistribution>constant</rangelengthdistribution>"
                + "<sections><section><name>s</name><records>1000</records></section></sections>"
                + "<monitor><enabled>false</enabled></monitor><transactiontypes>"
                + "<transactiontype><name>DeleteRecord</name></transactiontype>"
                + "<transactiontype><name>InsertRecord</name></transactiontype>"
                + "<transactiontype><name>RangeReadByKeysRecord</name></transactiontype></transactiontypes><works>"
                + "<work><name>churn</name><count>3000</count><rate>unlimited</rate><weights>40,20,40</weights>"
                + "<distribution>uniform</distribution></work></works></parameters>");
        TreeSet<String> model = SectionRuns.loaded("s", 1000);
        long rows = 0;
        int ranges = 0;
        for (String call : r.calls()) {
            String[] parts = call.split(" ");
            switch (parts[0]) {
                case "delete" -> assertTrue(model.remove(parts[1]), "deleted a key that was not live: " + call);
                case "insert" -> assertTrue(model.add(parts[1]), "inserted a live key: " + call);
                case "scanBetween" -> {
                    assertTrue(model.contains(parts[1]), "starts at a live key: " + call);
                    assertTrue(model.contains(parts[2]), "ends at a live key: " + call);
                    int between = model.subSet(parts[1], true, parts[2], true).size();
                    assertEquals(Math.min(20, model.tailSet(parts[1], true).size()), between, call);
                    rows += between;
                    ranges++;
                }
                default -> throw new AssertionError(call);
            }
        }
        assertEquals(3000, r.phases().get(0).counts().total());
        assertEquals(
                3000,
                r.phases().get(0).counts().ok(),
                "every delete found its record: " + r.phases().get(0).counts());
        assertEquals(ranges, r.module().rangeRows().rangeReadsByKeys());
        assertEquals(rows, r.module().rangeRows().rowsReadByKeys(), "rows returned = live keys between the ends");
        assertEquals(model, r.table(), "the model is the table");
        assertTrue(ranges > 1000 && model.size() < 900, ranges + " ranges over " + model.size() + " keys left");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void emptyReadsOfTec1AreAllEmptyAndProbeDeletedKeys(String target) throws Exception {
        Run r = runs().run(runs().shipped("sections_multi_phase.xml", target));

        assertEquals(
                List.of(4000L, 2000L, 2000L),
                r.phases().stream().map(p -> p.counts().total()).toList());
        Set<String> deleted = new HashSet<>();
        long emptyReads = 0;
        for (String call : r.calls()) {
            String[] parts = call.split(" ", 3);
            if (parts[0].equals("delete")) {
                deleted.add(parts[1]);
            } else if (parts[0].equals("read")) { // only the empty reads read point keys in this workload
                assertTrue(deleted.contains(parts[1]), "an empty read of a key never deleted: " + parts[1]);
                assertFalse(r.table().contains(parts[1]), "an empty read's key is in the table: " + parts[1]);
                emptyReads++;
            }
        }
        assertEquals(2000, emptyReads);
        assertTrue(deleted.size() > 150, "p1 deleted keys: " + deleted.size());
        PhaseSummary empties = r.phases().get(1);
        assertEquals(
                2000, empties.transactions().get("EmptyReadRecord").counts().ok(), "all empty, none present");
        assertTrue(r.table().stream().noneMatch(deleted::contains));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void sectionsKeepToTheirOwnDisjointKeySpaces(String target) throws Exception {
        Run r = runs().run(runs().shipped("sections_catalog_orders.xml", target));

        assertEquals(
                List.of(3000L, 3000L),
                r.phases().stream().map(p -> p.counts().total()).toList());
        assertEquals(6000, r.calls().size(), "one call per operation");
        long catalogReads = 0;
        for (int i = 0; i < r.calls().size(); i++) {
            String call = r.calls().get(i);
            String[] parts = call.split(" ", 3);
            int phase = i < 3000 ? 0 : 1;
            if (parts[0].equals("read") || parts[0].equals("insert") || parts[0].equals("scan")) {
                String section = parts[1].substring(0, parts[1].indexOf('/'));
                if (parts[0].equals("read") && section.equals("catalog")) {
                    catalogReads++;
                }
                assertTrue(phase == 0 ? section.equals("catalog") : section.equals("orders"), call);
            }
        }
        assertTrue(catalogReads > 2000, "catalog reads: " + catalogReads);
        for (PhaseSummary p : r.phases()) {
            assertEquals(p.counts().total(), p.counts().ok(), p.name() + ": " + p.counts());
        }
        long orders = r.table().stream().filter(k -> k.startsWith("orders/")).count();
        long inserts =
                r.phases().get(1).transactions().get("InsertRecord").counts().ok();
        assertEquals(1000 + inserts, orders);
        assertEquals(
                2000, r.table().stream().filter(k -> k.startsWith("catalog/")).count());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void theHotRangeOfTec7GetsItsShareOfReadsWhateverItsShareOfKeys(String target) throws Exception {
        Run r = runs().run(runs().shipped("sections_skewed_access.xml", target));

        PhaseSummary phase = r.phases().get(0);
        assertEquals(4000, phase.counts().total());
        assertEquals(phase.counts().total(), phase.counts().ok(), "every read found its record: " + phase.counts());
        String hot = "cache/range0/";
        long reads = 0;
        long hotReads = 0;
        long inserts = 0;
        long hotInserts = 0;
        for (String call : r.calls()) {
            String[] parts = call.split(" ", 3);
            switch (parts[0]) {
                case "read" -> {
                    reads++;
                    hotReads += parts[1].startsWith(hot) ? 1 : 0;
                }
                case "insert" -> {
                    inserts++;
                    hotInserts += parts[1].startsWith(hot) ? 1 : 0;
                }
                default -> throw new AssertionError(call);
            }
        }
        assertEquals(phase.transactions().get("ReadRecord").counts().ok(), reads, "one call per read");
        assertEquals(phase.transactions().get("InsertRecord").counts().ok(), inserts, "one call per insert");
        // binomial bounds, five standard deviations: the reads' share is <hotrange>'s 0.9, the keys' share is the
        // uniform prefix distribution's 1/10, for the loaded keys and the inserted ones alike
        assertEquals(0.9, (double) hotReads / reads, 5 * Math.sqrt(0.9 * 0.1 / reads), "hot share of the reads");
        assertEquals(0.1, (double) hotInserts / inserts, 5 * Math.sqrt(0.1 * 0.9 / inserts), "of the inserts");
        long loadedHot = r.table().stream().filter(k -> k.startsWith(hot)).count() - hotInserts;
        assertEquals(0.1, loadedHot / 2000.0, 5 * Math.sqrt(0.1 * 0.9 / 2000), "of the loaded keys");
        SectionKeys s = r.module().section("cache").orElseThrow();
        assertEquals(loadedHot + hotInserts, s.live().hotLiveCount(), "the live set's hot class is the table's");
        assertEquals(r.table().size(), s.live().liveCount());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void tec4MovesFromWritesToReadsAndItsRangesCoverTenToTwentyPerCent(String target) throws Exception {
        Run r = runs().run(runs().shipped("sections_slow_transition.xml", target));

        SectionRuns.mixAsSpecified(
                r,
                List.of(1000L, 1000L, 1000L),
                List.of(
                        Map.of("InsertRecord", 0.7, "ReadRecord", 0.2, "RangeReadRecord", 0.1),
                        Map.of("InsertRecord", 0.5, "ReadRecord", 0.3, "RangeReadRecord", 0.2),
                        Map.of("InsertRecord", 0.3, "ReadRecord", 0.4, "RangeReadRecord", 0.3)));
        long scans = 0;
        for (String call : r.calls()) {
            String[] parts = call.split(" ", 4);
            if (parts[0].equals("scan")) {
                int count = Integer.parseInt(parts[2]);
                // selectivity 0.1-0.2 of the 2,000 loaded keys
                assertTrue(count >= 200 && count <= 400, call);
                scans++;
            }
        }
        assertEquals(
                r.phases().stream()
                        .mapToLong(p ->
                                p.transactions().get("RangeReadRecord").counts().total())
                        .sum(),
                scans);
        long inserts = r.phases().stream()
                .mapToLong(p -> p.transactions().get("InsertRecord").counts().ok())
                .sum();
        assertEquals(2000 + inserts, r.table().size(), "the loaded keys and every insert");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void tec5SwitchesFromWriteHeavyToReadHeavyAndItsEmptyReadsAreEmpty(String target) throws Exception {
        Run r = runs().run(runs().shipped("sections_discrete_transition.xml", target));

        SectionRuns.mixAsSpecified(
                r,
                List.of(2000L, 2000L),
                List.of(
                        Map.of(
                                "InsertRecord",
                                0.9,
                                "EmptyReadRecord",
                                0.05,
                                "ReadRecord",
                                0.0,
                                "RangeReadRecord",
                                0.05),
                        Map.of(
                                "InsertRecord",
                                0.1,
                                "EmptyReadRecord",
                                0.0,
                                "ReadRecord",
                                0.7,
                                "RangeReadRecord",
                                0.2)));
        long emptyReads = 0;
        for (String call : r.calls()) {
            String[] parts = call.split(" ", 3);
            if (parts[0].equals("read") && !r.table().contains(parts[1])) {
                emptyReads++;
            }
        }
        assertEquals(
                r.phases().get(0).transactions().get("EmptyReadRecord").counts().ok(),
                emptyReads,
                "exactly the empty reads asked for keys the table does not hold");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void tec6KeysAndValuesSpanThirtyTwoToTwoHundredFiftySixBytes(String target) throws Exception {
        Run r = runs().run(runs().shipped("sections_variable_entry_size.xml", target));

        SectionRuns.mixAsSpecified(r, List.of(4000L), List.of(Map.of("InsertRecord", 0.5, "ReadRecord", 0.5)));
        IntSummaryStatistics keys = r.table().stream().mapToInt(String::length).summaryStatistics();
        IntSummaryStatistics values =
                r.valueBytes().values().stream().mapToInt(Integer::intValue).summaryStatistics();
        assertEquals(
                2000
                        + r.phases()
                                .get(0)
                                .transactions()
                                .get("InsertRecord")
                                .counts()
                                .ok(),
                keys.getCount());
        // about 3,000 keys uniform over 224 lengths: each end is reached (a miss of the 8 shortest has probability
        // (216/224)^3000, below 1e-40)
        assertTrue(keys.getMin() >= 32 && keys.getMin() < 40, "shortest key " + keys.getMin());
        assertTrue(keys.getMax() <= 255 && keys.getMax() > 247, "longest key " + keys.getMax());
        assertTrue(values.getMin() >= 32 && values.getMin() < 40, "shortest value " + values.getMin());
        assertTrue(values.getMax() <= 256 && values.getMax() > 248, "longest value " + values.getMax());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void tec3InsertsTenThousandNearSortedEntriesBesideItsReads(String target) throws Exception {
        Run r = runs().run(runs().shipped("sections_near_sorted_inserts.xml", target));

        SectionRuns.mixAsSpecified(r, List.of(12500L), List.of(Map.of("InsertRecord", 0.8, "ReadRecord", 0.2)));
        assertEquals(
                r.phases().get(0).transactions().get("InsertRecord").counts().ok(),
                r.table().size(),
                "the section starts empty: the table holds its inserts");
    }
}
