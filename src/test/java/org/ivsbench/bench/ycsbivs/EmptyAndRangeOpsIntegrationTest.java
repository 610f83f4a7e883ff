package org.ivsbench.bench.ycsbivs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import org.ivsbench.bench.LoadProgress;
import org.ivsbench.bench.Terminal;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.TargetConfig;
import org.ivsbench.config.TransactionTypeConfig;
import org.ivsbench.db.Target;
import org.ivsbench.db.Targets;
import org.ivsbench.db.cassandra.CassandraFixture;
import org.ivsbench.op.OpResult;
import org.ivsbench.op.Outcome;
import org.ivsbench.random.Seeds;
import org.ivsbench.testsupport.TestServers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Empty point reads/deletes and range reads/deletes on real databases: what the client counted against what
 * the database holds afterwards. A model of the table (the sorted key set) replays the calls the terminal sent,
 * so the rows each range operation should have returned or deleted are known independently of the binding.
 */
class EmptyAndRangeOpsIntegrationTest {
    private static final int RECORDS = 1000;

    static List<String> targets() {
        return List.of("memory", "sqlite", "innodb", "rocksdb", "postgres", "mongo");
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("keyOrders")
    void emptyOperationsNeverTouchARecord(String targetName, String keyOrder) throws Exception {
        BenchmarkConfig config = config(targetName, "empties", Map.of("keyorder", keyOrder));
        try (Target target = Targets.open(config.target())) {
            YcsbIvsModule module = loaded(config, target);
            String before = Fixtures.checksum(target, "empties");
            try (Terminal t = module.newTerminal(config, target, 0)) {
                t.startPhase(config.phases().get(0), Seeds.forStream(7, "terminal", 0, 0));
                for (int i = 0; i < 200; i++) {
                    assertEquals(OpResult.ok(), t.execute(Fixtures.typeIndex("EmptyReadRecord")), "empty read");
                    assertEquals(OpResult.ok(), t.execute(Fixtures.typeIndex("EmptyDeleteRecord")), "empty delete");
                }
                assertEquals(RECORDS, target.countRecords("empties"));
                assertEquals(before, Fixtures.checksum(target, "empties"), "no record changed");
                // A normal read of a deleted key is still "not found", as before.
                OpResult read;
                int deleted = 0;
                do {
                    deleted += t.execute(Fixtures.typeIndex("DeleteRecord")).isOk() ? 1 : 0;
                    read = t.execute(Fixtures.typeIndex("ReadRecord"));
                } while (read.isOk() && deleted < RECORDS);
                assertEquals(Outcome.ABORTED, read.outcome());
                assertEquals("not found", read.reason());
                if (!targetName.equals("cassandra")) { // its blind deletes say OK for a key already gone
                    assertEquals(RECORDS - deleted, target.countRecords("empties"));
                }
            }
            module.clear(config, target);
        }
    }

    /** What 300 range reads of one type did: the calls the terminal sent, the table's keys, the OK count. */
    private record RangeReads(YcsbIvsModule module, List<String> calls, TreeSet<String> model, long ok) {}

    /**
     * Loads {@code table} on the target, runs 300 operations of {@code type} from one terminal and reads the keys
     * back; checks the table kept its records and clears it.
     */
    private static RangeReads rangeReads(String targetName, String table, Map<String, String> p, String type)
            throws Exception {
        BenchmarkConfig config = config(targetName, table, p);
        try (Target target = Targets.open(config.target())) {
            YcsbIvsModule module = new YcsbIvsModule();
            List<String> calls = new ArrayList<>();
            Target recorded = Fixtures.recording(target, calls::add);
            module.create(config, target);
            module.load(config, target, LoadProgress.NONE);
            TreeSet<String> model = keys(target, table);
            long ok = 0;
            try (Terminal t = module.newTerminal(config, recorded, 0)) {
                t.startPhase(config.phases().get(0), Seeds.forStream(7, "terminal", 0, 0));
                for (int i = 0; i < 300; i++) {
                    ok += t.execute(Fixtures.typeIndex(type)).isOk() ? 1 : 0;
                }
            }
            assertEquals(RECORDS, target.countRecords(table));
            module.clear(config, target);
            return new RangeReads(module, calls, model, ok);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void rangeReadsReturnWhatTheKeyRangeHolds(String targetName) throws Exception {
        RangeReads r = rangeReads(
                targetName,
                "ranges",
                Map.of("keyorder", "ordered", "rangelengthdistribution", "uniform(min=1, max=50)"),
                "RangeReadRecord");
        long expected = 0;
        long asked = 0;
        for (String call : r.calls()) {
            String[] parts = call.split(" ");
            int count = Integer.parseInt(parts[2]);
            asked += count;
            expected += Math.min(count, r.model().tailSet(parts[1], true).size());
        }
        assertEquals(300, r.ok());
        assertEquals(300, r.calls().size());
        assertEquals(300, r.module().rangeRows().rangeReads());
        assertEquals(expected, r.module().rangeRows().rowsRead());
        // uniform 1..50 asks for 25.5 records on average: 300 draws land within 3 of it
        assertEquals(25.5, asked / 300.0, 3.0);
    }

    /**
     * KVBench's form: each range read names its start and end keys, 20 records apart (constant length), and the
     * server returns exactly the records the table holds between them (model: the sorted key set read back after
     * the load): 20, or what is left from the start to the last key.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void rangeReadsByKeysReturnTheRecordsBetweenTheirTwoEnds(String targetName) throws Exception {
        RangeReads r = rangeReads(
                targetName,
                "rangekeys",
                Map.of(
                        "keyorder", "ordered",
                        "keys/length", "14",
                        "scanlength", "20",
                        "rangelengthdistribution", "constant"),
                "RangeReadByKeysRecord");
        long expected = 0;
        int cut = 0;
        for (String call : r.calls()) {
            String[] parts = call.split(" ");
            assertEquals("scanBetween", parts[0], call);
            assertTrue(r.model().contains(parts[1]), "the start is a record's key: " + call);
            int between = r.model().subSet(parts[1], true, parts[2], true).size();
            int toTheEnd = r.model().tailSet(parts[1], true).size();
            assertEquals(Math.min(20, toTheEnd), between, "records between the ends: " + call);
            expected += between;
            cut += toTheEnd < 20 ? 1 : 0;
        }
        assertEquals(300, r.ok());
        assertEquals(300, r.calls().size());
        assertEquals(300, r.module().rangeRows().rangeReadsByKeys());
        assertEquals(expected, r.module().rangeRows().rowsReadByKeys(), "rows returned = rows between the ends");
        assertTrue(cut < 300 / 10, "ranges cut by the end of the key space (2 % expected): " + cut);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void rangeDeletesRemoveExactlyTheKeyRangesTheClientCounted(String targetName) throws Exception {
        BenchmarkConfig config = config(
                targetName,
                "rangedel",
                Map.of("keyorder", "ordered", "scanlength", "20", "rangelengthdistribution", "constant"));
        try (Target target = Targets.open(config.target())) {
            YcsbIvsModule module = new YcsbIvsModule();
            List<String> calls = new ArrayList<>();
            Target recorded = Fixtures.recording(target, calls::add);
            module.create(config, target);
            module.load(config, target, LoadProgress.NONE);
            TreeSet<String> model = keys(target, "rangedel");
            Map<Outcome, Integer> outcomes = new HashMap<>();
            try (Terminal t = module.newTerminal(config, recorded, 0)) {
                t.startPhase(config.phases().get(0), Seeds.forStream(7, "terminal", 0, 0));
                for (int i = 0; i < 40; i++) {
                    outcomes.merge(
                            t.execute(Fixtures.typeIndex("RangeDeleteRecord")).outcome(), 1, Integer::sum);
                }
            }
            long modelDeleted = 0;
            int emptyRanges = 0;
            for (String call : calls) {
                String[] parts = call.split(" ");
                Iterator<String> range = model.tailSet(parts[1], true).iterator();
                int removed = 0;
                for (; removed < Integer.parseInt(parts[2]) && range.hasNext(); removed++) {
                    range.next();
                    range.remove();
                }
                modelDeleted += removed;
                emptyRanges += removed == 0 ? 1 : 0;
            }
            long after = target.countRecords("rangedel");
            assertEquals(40, calls.size());
            assertEquals(RECORDS - after, module.rangeRows().rowsDeleted(), "client count = server count delta");
            assertEquals(modelDeleted, module.rangeRows().rowsDeleted());
            assertEquals(model, keys(target, "rangedel"), "exactly the key ranges went");
            assertEquals(40 - emptyRanges, outcomes.getOrDefault(Outcome.OK, 0));
            assertEquals(emptyRanges, outcomes.getOrDefault(Outcome.ABORTED, 0));
            assertTrue(modelDeleted > 200, "most ranges deleted 20 records: " + modelDeleted);
            module.clear(config, target);
        }
    }

    /** Cassandra too: it has point reads and (blind) deletes, only no range delete. */
    static List<Object[]> keyOrders() {
        List<Object[]> cases = new ArrayList<>();
        List<String> all = new ArrayList<>(targets());
        all.add("cassandra");
        for (String t : all) {
            cases.add(new Object[] {t, "hashed"});
            cases.add(new Object[] {t, "ordered"});
        }
        return cases;
    }

    private static YcsbIvsModule loaded(BenchmarkConfig config, Target target) throws Exception {
        YcsbIvsModule module = new YcsbIvsModule();
        module.create(config, target);
        module.load(config, target, LoadProgress.NONE);
        assertEquals(RECORDS, target.countRecords(config.parameters().get("table")));
        return module;
    }

    static TreeSet<String> keys(Target target, String table) throws Exception {
        TreeSet<String> keys = new TreeSet<>();
        target.forEachRecord(table, r -> keys.add(r.key()));
        return keys;
    }

    private static BenchmarkConfig config(String targetName, String table, Map<String, String> extra) {
        Map<String, String> p = new HashMap<>(extra);
        p.put("recordcount", Integer.toString(RECORDS));
        p.put("table", table);
        if (targetName.equals("innodb") || targetName.equals("rocksdb")) {
            p.put("engine", targetName.equals("rocksdb") ? "RocksDB" : "InnoDB");
        }
        BenchmarkConfig config = Fixtures.config(targetConfig(targetName), p, 7, 1, Fixtures.phase("uniform", 1));
        if (targetName.equals("cassandra")) {
            // RangeDeleteRecord and RangeReadByKeysRecord, refused there, are the last two types: leaving them out
            // keeps every other type's index.
            List<TransactionTypeConfig> types = config.transactionTypes();
            config = BenchmarkConfig.builder(config.target())
                    .randomSeed(7)
                    .batchSize(100)
                    .transactionTypes(types.subList(0, types.size() - 2))
                    .phases(config.phases())
                    .parameters(p)
                    .build();
        }
        try {
            new YcsbIvsModule().validate(config);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return config;
    }

    private static TargetConfig targetConfig(String name) {
        return switch (name) {
            case "postgres" -> TestServers.postgres();
            case "mongo" -> TestServers.mongo();
            case "cassandra" -> CassandraFixture.config(Map.of());
            case "memory" ->
                new TargetConfig(
                        "MEMORY", null, "memory:ranges-" + System.nanoTime(), null, null, null, false, Map.of());
            case "sqlite" -> {
                try {
                    Path dir = Files.createTempDirectory("ivs-ranges");
                    dir.toFile().deleteOnExit();
                    yield TestServers.sqlite(dir.resolve("test.db"));
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            }
            default -> Fixtures.targetConfig(name);
        };
    }
}
