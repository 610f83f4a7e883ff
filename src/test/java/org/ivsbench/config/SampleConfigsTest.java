package org.ivsbench.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The shipped configs under config/ must load with the ycsbivs names and say what their comments claim. */
class SampleConfigsTest {
    private static final Path CONFIG = Path.of("config");
    private static final Map<String, String> ENV =
            Map.of("IVS_MARIADB_PASSWORD", "ivs", "IVS_POSTGRES_PASSWORD", "ivs");

    static Stream<Path> samples() throws IOException {
        try (Stream<Path> files = Files.walk(CONFIG)) {
            // experiments/ belongs to the experiment runner and may use elements of its own.
            return files
                    .filter(f -> f.toString().endsWith(".xml") && !f.startsWith(CONFIG.resolve("experiments")))
                    .sorted()
                    .toList()
                    .stream();
        }
    }

    @Test
    void everyTargetAndWorkloadIsShipped() throws IOException {
        List<String> names = samples().map(p -> CONFIG.relativize(p).toString()).toList();
        for (String expected : List.of(
                "sqlite/ycsbivs_config.xml",
                "mariadb/ycsbivs_config.xml",
                "myrocks/ycsbivs_config.xml",
                "mongodb/ycsbivs_config.xml",
                "postgres/ycsbivs_config.xml",
                "cassandra/ycsbivs_config.xml")) {
            assertTrue(names.contains(expected), expected);
        }
        for (char w = 'a'; w <= 'f'; w++) {
            assertTrue(names.contains("sqlite/workloads/ycsb_workload_" + w + ".xml"), "workload " + w);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("samples")
    void loads(Path file) throws ConfigException {
        BenchmarkConfig c = YcsbIvsNames.load(file, ENV);
        assertTrue(c.phases().size() >= 1);
        // sample_*.xml are BenchBase's samples kept as BenchBase ships them (only URL and credentials changed).
        if (!file.getFileName().toString().startsWith("sample_")) {
            assertEquals(42, c.randomSeed(), "samples are seeded explicitly so the seed shows in the file");
        }
        for (PhaseConfig p : c.phases()) {
            assertEquals(c.transactionTypes().size(), p.weights().size());
        }
        // The copy kept with the results must not change anything but secrets.
        assertTrue(ConfigRedactor.redactedXml(file).contains("<works>"));
    }

    @Test
    void sqliteDemoFinishesInTwentyToThirtySeconds() throws ConfigException {
        BenchmarkConfig c = YcsbIvsNames.load(CONFIG.resolve("sqlite/ycsbivs_config.xml"), ENV);
        long seconds = c.phases().stream()
                .mapToLong(p -> p.warmupSeconds() + p.timeSeconds())
                .sum();
        assertTrue(seconds >= 20 && seconds <= 30, seconds + " s");
        assertTrue(c.phases().stream().noneMatch(PhaseConfig::endsByCount));
        assertEquals(RateSpec.open(500), c.phases().get(1).rate());
        assertEquals("1000", c.parameters().get("recordcount"));
    }

    @Test
    void mariadbAndMyrocksDifferInEngineAndPort() throws ConfigException {
        BenchmarkConfig innodb = YcsbIvsNames.load(CONFIG.resolve("mariadb/ycsbivs_config.xml"), ENV);
        BenchmarkConfig myrocks = YcsbIvsNames.load(CONFIG.resolve("myrocks/ycsbivs_config.xml"), ENV);
        assertEquals("InnoDB", innodb.parameters().get("engine"));
        assertEquals("RocksDB", myrocks.parameters().get("engine"));
        assertEquals("ivs", innodb.target().password());
        assertEquals("jdbc:mariadb://127.0.0.1:3306/ivsbench", innodb.target().url());
        assertEquals("jdbc:mariadb://127.0.0.1:3307/ivsbench", myrocks.target().url());
        assertEquals(
                List.of(10000L, 100000L),
                innodb.phases().stream().map(PhaseConfig::count).toList());
    }

    @Test
    void postgresIsTheMariadbSetupOnPostgresql() throws ConfigException {
        BenchmarkConfig innodb = YcsbIvsNames.load(CONFIG.resolve("mariadb/ycsbivs_config.xml"), ENV);
        BenchmarkConfig pg = YcsbIvsNames.load(CONFIG.resolve("postgres/ycsbivs_config.xml"), ENV);
        assertEquals("POSTGRESQL", pg.target().type());
        assertEquals("jdbc:postgresql://127.0.0.1:5432/ivsbench", pg.target().url());
        assertEquals("TRANSACTION_READ_COMMITTED", pg.target().isolation());
        assertEquals("ivs", pg.target().password());
        assertTrue(pg.parameters().get("engine") == null, "PostgreSQL has no engine choice");
        assertEquals(innodb.phases(), pg.phases());
    }

    @Test
    void ycsbWorkloadsHaveYcsbProportions() throws ConfigException {
        Map<Character, List<Double>> weights = Map.of(
                'a',
                List.of(50.0, 50.0),
                'b',
                List.of(95.0, 5.0),
                'c',
                List.of(100.0),
                'd',
                List.of(95.0, 5.0),
                'e',
                List.of(95.0, 5.0),
                'f',
                List.of(50.0, 50.0));
        Map<Character, List<String>> types = Map.of(
                'a',
                List.of("ReadRecord", "UpdateRecord"),
                'b',
                List.of("ReadRecord", "UpdateRecord"),
                'c',
                List.of("ReadRecord"),
                'd',
                List.of("ReadRecord", "InsertRecord"),
                'e',
                List.of("ScanRecord", "InsertRecord"),
                'f',
                List.of("ReadRecord", "ReadModifyWriteRecord"));
        for (char w = 'a'; w <= 'f'; w++) {
            BenchmarkConfig c = YcsbIvsNames.load(CONFIG.resolve("sqlite/workloads/ycsb_workload_" + w + ".xml"));
            assertEquals(types.get(w), c.transactionTypeNames(), "workload " + w);
            assertEquals(weights.get(w), c.phases().get(0).weights(), "workload " + w);
            assertEquals(
                    w == 'd' ? "latest" : "zipfian",
                    c.phases().get(0).parameters().get("distribution"));
        }
    }

    /** One phase of a Tectonic workload as its Table 2 gives it: operation type -> share in per cent. */
    private record Composition(String distribution, Map<String, Double> shares) {}

    /**
     * Tectonic's Table 2, as the shipped workloads name its operations (insert: InsertRecord; non-empty point
     * query: ReadRecord; empty point query: EmptyReadRecord; non-empty point delete: DeleteRecord; range query:
     * RangeReadRecord), phase by phase; a type missing from a phase has weight 0. Table 2 gives distributions for
     * Tec-1 only; the others run uniform.
     */
    @Test
    void tectonicWorkloadsHaveTheirTable2Compositions() throws ConfigException {
        Map<String, List<Composition>> table2 = Map.of(
                "sections_multi_phase.xml", // Tec-1
                List.of(
                        new Composition("zipfian", Map.of("InsertRecord", 95.0, "DeleteRecord", 5.0)),
                        new Composition("uniform", Map.of("EmptyReadRecord", 100.0)),
                        new Composition("uniform", Map.of("InsertRecord", 50.0, "RangeReadRecord", 50.0))),
                "sections_slow_transition.xml", // Tec-4
                List.of(
                        new Composition(
                                "uniform", Map.of("InsertRecord", 70.0, "ReadRecord", 20.0, "RangeReadRecord", 10.0)),
                        new Composition(
                                "uniform", Map.of("InsertRecord", 50.0, "ReadRecord", 30.0, "RangeReadRecord", 20.0)),
                        new Composition(
                                "uniform", Map.of("InsertRecord", 30.0, "ReadRecord", 40.0, "RangeReadRecord", 30.0))),
                "sections_discrete_transition.xml", // Tec-5
                List.of(
                        new Composition(
                                "uniform",
                                Map.of("InsertRecord", 90.0, "EmptyReadRecord", 5.0, "RangeReadRecord", 5.0)),
                        new Composition(
                                "uniform", Map.of("InsertRecord", 10.0, "ReadRecord", 70.0, "RangeReadRecord", 20.0))),
                "sections_variable_entry_size.xml", // Tec-6
                List.of(new Composition("uniform", Map.of("InsertRecord", 50.0, "ReadRecord", 50.0))),
                "sections_skewed_access.xml", // Tec-7
                List.of(new Composition("uniform", Map.of("InsertRecord", 50.0, "ReadRecord", 50.0))),
                "sections_interleaved.xml", // Tec-2 (its per-type distributions: below)
                List.of(new Composition(
                        "uniform",
                        Map.of(
                                "InsertRecord", 50.0,
                                "ReadRecord", 20.0,
                                "EmptyReadRecord", 10.0,
                                "DeleteRecord", 10.0,
                                "RangeDeleteRecord", 10.0))));
        for (Map.Entry<String, List<Composition>> e : table2.entrySet()) {
            BenchmarkConfig c = YcsbIvsNames.load(CONFIG.resolve("workloads").resolve(e.getKey()));
            List<String> types = c.transactionTypeNames();
            assertEquals(e.getValue().size(), c.phases().size(), e.getKey());
            for (int i = 0; i < c.phases().size(); i++) {
                PhaseConfig phase = c.phases().get(i);
                Composition expected = e.getValue().get(i);
                String where = e.getKey() + " phase " + (i + 1);
                assertTrue(phase.count() > 0, where + ": a count phase");
                double total = phase.weights().stream()
                        .mapToDouble(Double::doubleValue)
                        .sum();
                for (int t = 0; t < types.size(); t++) {
                    assertEquals(
                            expected.shares().getOrDefault(types.get(t), 0.0),
                            100 * phase.weights().get(t) / total,
                            1e-9,
                            where + " " + types.get(t));
                }
                assertTrue(types.containsAll(expected.shares().keySet()), where + ": " + types);
                assertEquals(expected.distribution(), phase.parameters().get("distribution"), where);
            }
        }
    }

    /**
     * KVBench's workloads I-V as Tectonic's public specifications give them (op counts per group): I, 200,000
     * point reads and 800,000 empty point reads; II, 400,000 inserts, 100,000 point deletes, 150,000 empty point reads
     * and 250,000 updates; III, 500,000 updates, 250,000 point reads and 250,000 empty point reads; IV, 500,000
     * updates and 500,000 range deletes; V, 950,000 inserts and 50,000 point reads. The weights are the counts' per
     * cent shares to four decimals; III's updates and reads and IV's updates select by beta(0.1, 5).
     */
    @Test
    void kvbenchWorkloadsHaveTheirSpecifiedOperationCounts() throws ConfigException {
        Map<String, Map<String, Double>> counts = Map.of(
                "kvbench_i.xml",
                Map.of("ReadRecord", 200_000.0, "EmptyReadRecord", 800_000.0),
                "kvbench_ii.xml",
                Map.of(
                        "InsertRecord", 400_000.0,
                        "DeleteRecord", 100_000.0,
                        "EmptyReadRecord", 150_000.0,
                        "UpdateRecord", 250_000.0),
                "kvbench_iii.xml",
                Map.of("UpdateRecord", 500_000.0, "ReadRecord", 250_000.0, "EmptyReadRecord", 250_000.0),
                "kvbench_iv.xml",
                Map.of("UpdateRecord", 500_000.0, "RangeDeleteRecord", 500_000.0),
                "kvbench_v.xml",
                Map.of("InsertRecord", 950_000.0, "ReadRecord", 50_000.0));
        for (Map.Entry<String, Map<String, Double>> e : counts.entrySet()) {
            BenchmarkConfig c = YcsbIvsNames.load(CONFIG.resolve("workloads").resolve(e.getKey()));
            double all = e.getValue().values().stream()
                    .mapToDouble(Double::doubleValue)
                    .sum();
            List<String> types = c.transactionTypeNames();
            assertEquals(e.getValue().keySet(), Set.copyOf(types), e.getKey());
            assertEquals(1, c.phases().size(), e.getKey());
            PhaseConfig phase = c.phases().get(0);
            assertTrue(phase.count() > 0, e.getKey() + ": a count phase");
            for (int t = 0; t < types.size(); t++) {
                assertEquals(
                        e.getValue().get(types.get(t)) / all,
                        phase.weights().get(t) / 100,
                        0.5e-6,
                        e.getKey() + " " + types.get(t));
            }
            assertEquals("uniform", phase.parameters().get("distribution"), e.getKey());
        }
        assertEquals(
                Map.of("UpdateRecord", "beta(alpha=0.1, beta=5)", "ReadRecord", "beta(alpha=0.1, beta=5)"),
                typeDistributions("kvbench_iii.xml"));
        assertEquals(Map.of("UpdateRecord", "beta(alpha=0.1, beta=5)"), typeDistributions("kvbench_iv.xml"));
    }

    /** Tec-2's per-type distributions in Table 2's order of its operations: the inserts' Zipfian has no meaning. */
    @Test
    void tec2GivesEachOperationItsOwnDistribution() throws ConfigException {
        assertEquals(
                Map.of(
                        "ReadRecord", "latest",
                        "EmptyReadRecord", "normal(mean=0.5, stddev=0.1)",
                        "DeleteRecord", "uniform",
                        "RangeDeleteRecord", "pareto(scale=0.1, shape=1.16)"),
                typeDistributions("sections_interleaved.xml"));
    }

    /** A shipped workload's first phase's per-type distributions, as written in the file. */
    private static Map<String, String> typeDistributions(String name) throws ConfigException {
        PhaseConfig phase = YcsbIvsNames.load(CONFIG.resolve("workloads").resolve(name))
                .phases()
                .get(0);
        LeafView perType = phase.parameterView().section("distributions");
        Map<String, String> out = new TreeMap<>();
        for (String type : perType.names()) {
            out.put(type, perType.leaf(type));
        }
        return out;
    }
}
