package org.ivsbench.bench.ycsbivs;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntToDoubleFunction;

import org.apache.commons.statistics.distribution.BetaDistribution;
import org.apache.commons.statistics.distribution.NormalDistribution;
import org.apache.commons.statistics.inference.ChiSquareTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.ivsbench.bench.LoadProgress;
import org.ivsbench.bench.LoadReport;
import org.ivsbench.bench.Terminal;
import org.ivsbench.bench.ycsbivs.procedures.Procedures;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.PhaseConfig;
import org.ivsbench.db.Target;
import org.ivsbench.db.Targets;
import org.ivsbench.op.OpResult;
import org.ivsbench.op.Outcome;
import org.ivsbench.random.ExpectedKeyShares;
import org.ivsbench.random.KeyNames;
import org.ivsbench.random.Seeds;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Key and length distributions in real phases on SQLite (in process): where operations land is read back
 * from what the terminal sent and from the table itself. Every stream is seeded, so each count is a fixed
 * number; the tolerances say how far a correct sampler could plausibly be from the expectation.
 */
class DistributionsSqliteTest {

    @Test
    void readsPerKeyFollowTheDistribution() throws Exception {
        int records = 100;
        int reads = 20_000;
        BenchmarkConfig config = config(
                "reads",
                Map.of("recordcount", "" + records, "fieldcount", "1", "fieldlength", "10", "keyorder", "ordered"),
                phase(Map.of("distribution", "beta(alpha=2, beta=5)")));
        long[] perKey = new long[records];
        Map<String, Integer> numbers = keyNumbers(records);
        try (Target plain = Targets.open(config.target())) {
            YcsbIvsModule module = loaded(config, plain);
            List<String> calls = new ArrayList<>();
            try (Terminal t = module.newTerminal(config, Fixtures.recording(plain, calls::add), 0)) {
                t.startPhase(config.phases().get(0), Seeds.forStream(1, "terminal", 0, 0));
                for (int i = 0; i < reads; i++) {
                    assertEquals(
                            Outcome.OK,
                            t.execute(Fixtures.typeIndex("ReadRecord")).outcome());
                }
            }
            for (String call : calls) {
                perKey[numbers.get(call.split(" ")[1])]++;
            }
        }
        BetaDistribution beta = BetaDistribution.of(2, 5);
        double[] expected = new double[records];
        for (int k = 0; k < records; k++) {
            expected[k] = reads
                    * (beta.cumulativeProbability((k + 1.0) / records)
                            - beta.cumulativeProbability((double) k / records));
        }
        // Keys near 1 expect almost nothing: pool the cells under 5 into one.
        double p = ChiSquareTest.withDefaults()
                .test(pooled(expected, perKey)[0], longs(pooled(expected, perKey)[1]))
                .getPValue();
        assertTrue(p > 0.001, "p-value " + p);
        assertEquals(reads, sum(perKey, 0, records));
    }

    /**
     * Every key distribution, through the real terminal on SQLite: the keys the terminal's reads sent, and
     * what SQLite returned for them, counted per key against the share the distribution's definition gives
     * each key (worked out independently of the generators by {@link ExpectedKeyShares}).
     */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "uniform",
                "zipfian",
                "zipfian(theta=0.8)",
                "zipfian-unscrambled(theta=0.6)",
                "latest",
                "hotspot(set=0.2, ops=0.8)",
                "sequential",
                "exponential",
                "exponential(mean=0.2)",
                "normal(mean=0.3, stddev=0.15)",
                "beta(alpha=2, beta=5)",
                "lognormal(mu=-1.2, sigma=0.5)",
                "pareto(scale=0.05, shape=1.5)",
                "weibull(shape=1.5, scale=0.4)",
                "poisson(mean=40)"
            })
    void everyDistributionsReadsLandOnSqliteAsItsDefinitionSays(String expression) throws Exception {
        int records = 100;
        int reads = 20_000;
        BenchmarkConfig config = config(
                "every",
                Map.of("recordcount", "" + records, "fieldcount", "1", "fieldlength", "10", "keyorder", "ordered"),
                phase(Map.of("distribution", expression)));
        long[] perKey = new long[records];
        Map<String, Integer> numbers = keyNumbers(records);
        try (Target plain = Targets.open(config.target())) {
            YcsbIvsModule module = loaded(config, plain);
            List<String> calls = new ArrayList<>();
            try (Terminal t = module.newTerminal(config, Fixtures.recording(plain, calls::add), 0)) {
                t.startPhase(config.phases().get(0), Seeds.forStream(3, "terminal", 0, 0));
                for (int i = 0; i < reads; i++) {
                    // OK means SQLite found the record: the key the distribution chose exists in the table.
                    assertEquals(
                            Outcome.OK,
                            t.execute(Fixtures.typeIndex("ReadRecord")).outcome(),
                            expression);
                }
            }
            for (String call : calls) {
                perKey[numbers.get(call.split(" ")[1])]++;
            }
        }
        assertEquals(reads, sum(perKey, 0, records));
        IntToDoubleFunction share = ExpectedKeyShares.of(expression, records);
        double[] expected = new double[records];
        double total = 0;
        for (int k = 0; k < records; k++) {
            expected[k] = reads * share.applyAsDouble(k);
            total += share.applyAsDouble(k);
            assertTrue(expected[k] > 0 || perKey[k] == 0, expression + ": key " + k + " read, expected never");
        }
        assertEquals(1, total, 1e-9, expression + ": the expected shares sum to 1");
        double[][] cells = pooled(expected, perKey);
        double p = ChiSquareTest.withDefaults().test(cells[0], longs(cells[1])).getPValue();
        assertTrue(p > 0.001, expression + ": p-value " + p + " of the per-key read counts");
    }

    @Test
    void aNarrowNormalWithOrderedKeysExtendsTheMiddleOfTheTable() throws Exception {
        // 10,000 records of one 1-byte field; each extend adds 1 byte, so a record's length - 1 is its extends.
        int records = 10_000;
        int extendsDone = 2_000;
        BenchmarkConfig config = config(
                "middle",
                Map.of(
                        "recordcount",
                        "" + records,
                        "fieldcount",
                        "1",
                        "fieldlength",
                        "1",
                        "extendfieldlength",
                        "1",
                        "keyorder",
                        "ordered"),
                phase(Map.of("distribution", "normal(mean=0.5, stddev=0.05)")));
        long[] perKey;
        try (Target target = Targets.open(config.target())) {
            YcsbIvsModule module = loaded(config, target);
            try (Terminal t = module.newTerminal(config, target, 0)) {
                t.startPhase(config.phases().get(0), Seeds.forStream(2, "terminal", 0, 0));
                for (int i = 0; i < extendsDone; i++) {
                    assertEquals(
                            Outcome.OK,
                            t.execute(Fixtures.typeIndex("ExtendRecord")).outcome());
                }
            }
            perKey = extendsPerKey(target, "middle", records, 1);
        }
        assertEquals(extendsDone, sum(perKey, 0, records));
        // Records 4,000-5,999 hold x in [0.4, 0.6): two standard deviations each side.
        NormalDistribution n = NormalDistribution.of(0.5, 0.05);
        double share = (n.cumulativeProbability(0.6) - n.cumulativeProbability(0.4))
                / (n.cumulativeProbability(1) - n.cumulativeProbability(0));
        double expected = extendsDone * share;
        double spread = Math.sqrt(extendsDone * share * (1 - share));
        long middle = sum(perKey, 4_000, 6_000);
        System.out.printf(
                Locale.ROOT,
                "normal(mean=0.5, stddev=0.05), ordered keys, %,d records: %,d of %,d extends (%.1f %%) on records"
                        + " 4,000-5,999 (expected %.1f %%)%n",
                records,
                middle,
                extendsDone,
                100.0 * middle / extendsDone,
                100 * share);
        assertTrue(
                Math.abs(middle - expected) < 4 * spread,
                middle + " of " + extendsDone + " extends on records" + " 4,000-5,999; expected " + expected + " +- "
                        + 4 * spread);
    }

    @Test
    void eachTransactionTypeUsesItsOwnDistribution() throws Exception {
        // The phase's normal sits at the top of the key space; extends have their own at the bottom.
        int records = 1_000;
        BenchmarkConfig config = config(
                "pertype",
                Map.of(
                        "recordcount",
                        "" + records,
                        "fieldcount",
                        "1",
                        "fieldlength",
                        "1",
                        "extendfieldlength",
                        "1",
                        "keyorder",
                        "ordered"),
                phase(Map.of(
                        "distribution",
                        "normal(mean=0.9, stddev=0.02)",
                        "distributions/ExtendRecord",
                        "normal(mean=0.1, stddev=0.02)")));
        Map<String, Integer> numbers = keyNumbers(records);
        List<String> calls = new ArrayList<>();
        long[] perKey;
        long left;
        try (Target plain = Targets.open(config.target())) {
            YcsbIvsModule module = loaded(config, plain);
            try (Terminal t = module.newTerminal(config, Fixtures.recording(plain, calls::add), 0)) {
                t.startPhase(config.phases().get(0), Seeds.forStream(3, "terminal", 0, 0));
                for (int i = 0; i < 400; i++) {
                    OpResult r = t.execute(Fixtures.typeIndex(i % 2 == 0 ? "ExtendRecord" : "DeleteRecord"));
                    assertTrue(r.outcome() == Outcome.OK || r.reason().equals("not found"), r.toString());
                }
            }
            perKey = extendsPerKey(plain, "pertype", records, 1);
            left = plain.countRecords("pertype");
        }
        int deletes = 0;
        for (String call : calls) {
            String[] parts = call.split(" ");
            int key = numbers.get(parts[1]);
            if (parts[0].equals("delete")) {
                deletes++;
                assertTrue(key >= 700, "delete of record " + key);
            } else {
                assertTrue(key < 300, parts[0] + " of record " + key);
            }
        }
        assertEquals(200, deletes);
        assertEquals(200, sum(perKey, 0, 300), "every extend grew a record in the bottom 30 %");
        assertTrue(left < records && left > records - 200, left + " records left");
    }

    @Test
    void loadedInsertedUpdatedAndExtendedSizesFollowTheLengthDistributions() throws Exception {
        BenchmarkConfig config = config(
                "sizes",
                Map.of(
                        "recordcount",
                        "2000",
                        "fieldcount",
                        "2",
                        "fieldlengthdistribution",
                        "uniform(min=10, max=29)",
                        "extendlengthdistribution",
                        "normal(mean=50, stddev=5, min=30, max=70)"),
                phase(Map.of()));
        try (Target plain = Targets.open(config.target())) {
            YcsbIvsModule module = new YcsbIvsModule();
            module.create(config, plain);
            LoadReport report = module.load(config, plain, LoadProgress.NONE);
            long[] lengths = new long[20];
            long[] volume = {0};
            plain.forEachRecord("sizes", r -> r.fields().values().forEach(v -> {
                lengths[v.length() - 10]++;
                volume[0] += v.length();
            }));
            assertEquals(volume[0], report.bytes(), "the load reports the bytes it wrote");
            double[] uniform = new double[20];
            Arrays.fill(uniform, 4000 / 20.0);
            assertTrue(ChiSquareTest.withDefaults().test(uniform, lengths).getPValue() > 0.001);

            List<String> calls = new ArrayList<>();
            long extended = 0;
            try (Terminal t = module.newTerminal(config, Fixtures.recording(plain, calls::add), 0)) {
                t.startPhase(config.phases().get(0), Seeds.forStream(4, "terminal", 0, 0));
                for (int i = 0; i < 1000; i++) {
                    OpResult r = t.execute(Fixtures.typeIndex(i % 2 == 0 ? "ExtendRecord" : "UpdateRecord"));
                    assertEquals(Outcome.OK, r.outcome());
                }
                assertEquals(
                        Outcome.OK,
                        t.execute(Fixtures.typeIndex("InsertRecord")).outcome());
            }
            double suffixes = 0;
            for (String call : calls) {
                String[] parts = call.split(" ");
                if (parts[0].equals("extend")) {
                    int length = parts[3].length();
                    assertTrue(length >= 30 && length <= 70, "suffix of " + length);
                    suffixes += length;
                    extended++;
                } else {
                    // update/insert: {FIELDn=value, ...}; every value 10-29 bytes
                    for (String value : call.replaceAll(".*\\{|\\}", "").split(", ")) {
                        int length = value.substring(value.indexOf('=') + 1).length();
                        assertTrue(length >= 10 && length <= 29, parts[0] + " value of " + length);
                    }
                }
            }
            assertEquals(500, extended);
            // Mean of 500 suffixes: sd 5 / sqrt(500) = 0.22; the truncation at 30 and 70 is 4 sd away.
            assertEquals(50, suffixes / extended, 1.0);
        }
    }

    private static BenchmarkConfig config(String table, Map<String, String> extra, PhaseConfig phase) {
        Map<String, String> p = new HashMap<>(extra);
        return Fixtures.config(Fixtures.targetConfig("sqlite"), Fixtures.params("sqlite", table, p), 7, 1, phase);
    }

    private static PhaseConfig phase(Map<String, String> parameters) {
        List<Double> weights = new ArrayList<>();
        for (int i = 0; i < Procedures.names().size(); i++) {
            weights.add(i == 0 ? 100.0 : 0.0);
        }
        return PhaseConfig.builder(0)
                .name("phase")
                .count(1)
                .weights(weights)
                .parameters(parameters)
                .build();
    }

    private static YcsbIvsModule loaded(BenchmarkConfig config, Target target) throws Exception {
        YcsbIvsModule module = new YcsbIvsModule();
        module.validate(config);
        module.create(config, target);
        module.load(config, target, LoadProgress.NONE);
        return module;
    }

    private static Map<String, Integer> keyNumbers(int records) {
        Map<String, Integer> numbers = new HashMap<>();
        for (int k = 0; k < records; k++) {
            numbers.put(KeyNames.key(k, true), k);
        }
        return numbers;
    }

    /** Extends per record of one-field ordered keys, from the table: (length - initial) / 1 byte. */
    private static long[] extendsPerKey(Target target, String table, int records, int initial) throws Exception {
        Map<String, Integer> numbers = keyNumbers(records);
        long[] perKey = new long[records];
        target.forEachRecord(
                table,
                r -> perKey[numbers.get(r.key())] = r.fields().get("FIELD0").length() - initial);
        return perKey;
    }

    private static long sum(long[] a, int from, int to) {
        long s = 0;
        for (int i = from; i < to; i++) {
            s += a[i];
        }
        return s;
    }

    /** {expected, observed} with the cells expecting fewer than 5 pooled into one. */
    private static double[][] pooled(double[] expected, long[] observed) {
        List<double[]> cells = new ArrayList<>();
        double e = 0;
        double o = 0;
        for (int k = 0; k < expected.length; k++) {
            if (expected[k] < 5) {
                e += expected[k];
                o += observed[k];
            } else {
                cells.add(new double[] {expected[k], observed[k]});
            }
        }
        if (e > 0) {
            cells.add(new double[] {e, o});
        }
        double[][] result = new double[2][cells.size()];
        for (int i = 0; i < cells.size(); i++) {
            result[0][i] = cells.get(i)[0];
            result[1][i] = cells.get(i)[1];
        }
        return result;
    }

    private static long[] longs(double[] a) {
        long[] l = new long[a.length];
        for (int i = 0; i < a.length; i++) {
            l[i] = (long) a[i];
        }
        return l;
    }
}
