package org.ivsbench.bench.ycsbivs;

import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import org.ivsbench.bench.ycsbivs.procedures.EmptyDeleteRecord;
import org.ivsbench.bench.ycsbivs.procedures.EmptyReadRecord;
import org.ivsbench.bench.ycsbivs.procedures.ProcedureContext;
import org.ivsbench.bench.ycsbivs.procedures.Procedures;
import org.ivsbench.bench.ycsbivs.procedures.RangeReadRecord;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.ConfigException;
import org.ivsbench.config.TargetConfig;
import org.ivsbench.config.TransactionTypeConfig;
import org.ivsbench.random.KeyNames;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Config checks of the empty and range operations, and the disjointness of the absent keys. */
class EmptyAndRangeConfigTest {
    private static final TargetConfig SQLITE =
            new TargetConfig("SQLITE", null, "jdbc:sqlite:x.db", null, null, null, false, Map.of());
    private static final TargetConfig CASSANDRA =
            new TargetConfig("CASSANDRA", null, "cassandra://h:9042/ks?dc=dc1", null, null, null, false, Map.of());

    @Test
    void rangeLengthsDefaultToScansAndTakeLengthExpressions() throws ConfigException {
        YcsbIvsParameters plain = YcsbIvsParameters.from(Fixtures.config(SQLITE, Map.of("scanlength", "40"), 1, 1));
        assertEquals(1, plain.rangeLengths().min());
        assertEquals(40, plain.rangeLengths().max());
        YcsbIvsParameters exp = YcsbIvsParameters.from(
                Fixtures.config(SQLITE, Map.of("rangelengthdistribution", "exponential(mean=100, max=1000)"), 1, 1));
        assertEquals(1000, exp.rangeLengths().max());
        assertEquals(100, exp.rangeLengths().mean(), 5);
    }

    @Test
    void badRangeLengthsNameTheElementAndValue() {
        assertEquals(
                "rangelengthdistribution: 'gaussian': unknown length distribution 'gaussian'; valid: constant,"
                        + " uniform, zipfian, normal, beta, exponential, lognormal, pareto, weibull, poisson",
                message(SQLITE, Map.of("rangelengthdistribution", "gaussian"), List.of()));
        assertEquals(
                "rangelengthdistribution: 'uniform(min=0)': uniform parameter min=0 must be in [1, 2147483647]",
                message(SQLITE, Map.of("rangelengthdistribution", "uniform(min=0)"), List.of()));
        // A range never asks for more records than the table has at load.
        assertEquals(
                "rangelengthdistribution: 'uniform(max=5000)': max=5000 must be <= 1000",
                message(SQLITE, Map.of("rangelengthdistribution", "uniform(max=5000)"), List.of()));
    }

    @Test
    void unknownOperationAndRangeDeleteOnCassandraAreRefused() {
        assertEquals(
                "transactiontypes/transactiontype[1]/name: 'EmptyScanRecord' is not a ycsbivs transaction type;"
                        + " known: ReadRecord, ExtendRecord, UpdateRecord, InsertRecord, ScanRecord, DeleteRecord,"
                        + " ReadModifyWriteRecord, EmptyReadRecord, EmptyDeleteRecord, RangeReadRecord,"
                        + " RangeDeleteRecord",
                message(SQLITE, Map.of(), List.of("EmptyScanRecord")));
        assertEquals(
                "transactiontypes/transactiontype[2]/name: 'RangeDeleteRecord' is not available for type CASSANDRA"
                        + " (Apache Cassandra does not keep records in key order, so it cannot delete a key range);"
                        + " remove it",
                message(CASSANDRA, Map.of(), List.of("RangeReadRecord", "RangeDeleteRecord")));
    }

    @Test
    void theOtherOperationsAreAcceptedOnCassandra() throws ConfigException {
        List<String> types = List.of("EmptyReadRecord", "EmptyDeleteRecord", "RangeReadRecord");
        BenchmarkConfig config = withTypes(CASSANDRA, Map.of(), types);
        new YcsbIvsModule().validate(config);
        // What the accepted config means: the three types in config order, each run by its own procedure ...
        assertEquals(types, config.transactionTypeNames());
        assertEquals(
                List.of(EmptyReadRecord.class, EmptyDeleteRecord.class, RangeReadRecord.class),
                types.stream()
                        .map(n -> Procedures.byName(n).orElseThrow().getClass())
                        .toList());
        // ... over scalefactor 1 = 1000 records, each range read asking for 1 .. 100 of them (scanlength's
        // default), every length equally likely.
        YcsbIvsParameters p = YcsbIvsParameters.from(config);
        assertEquals(1000, p.recordCount());
        assertEquals(100, p.scanLength());
        assertEquals("uniform", p.rangeLengths().spec().name());
        assertEquals(1, p.rangeLengths().min());
        assertEquals(100, p.rangeLengths().max());
        long[] seen = new long[101];
        SplittableRandom r = new SplittableRandom(3);
        for (int i = 0; i < 100_000; i++) {
            seen[p.rangeLengths().next(r)]++; // a length outside 0..100 fails here
        }
        assertEquals(0, seen[0]);
        for (int length = 1; length <= 100; length++) {
            // 1000 expected; 4.5 standard deviations (31.5 each) either side
            assertTrue(Math.abs(seen[length] - 1000) < 142, "length " + length + " drawn " + seen[length] + " times");
        }
    }

    @Test
    void absentKeysAreOutsideTheKeySpaceOfLoadsAndInserts() {
        // KeyNames is the only source of record keys (loader and InsertRecord); its alphabet lacks the mark.
        SplittableRandom r = new SplittableRandom(5);
        String mark = String.valueOf(ProcedureContext.ABSENT_MARK);
        for (int i = 0; i < 100_000; i++) {
            long n = i < 50_000 ? i : r.nextLong(Long.MAX_VALUE);
            assertFalse(KeyNames.key(n, true).contains(mark));
            assertFalse(KeyNames.key(n, false).contains(mark));
        }
    }

    private static String message(TargetConfig target, Map<String, String> p, List<String> types) {
        return assertThrows(ConfigException.class, () -> new YcsbIvsModule().validate(withTypes(target, p, types)))
                .getMessage();
    }

    private static BenchmarkConfig withTypes(TargetConfig target, Map<String, String> p, List<String> types) {
        BenchmarkConfig all = Fixtures.config(target, p, 1, 1);
        if (types.isEmpty()) {
            return all;
        }
        return BenchmarkConfig.builder(target)
                .transactionTypes(types.stream()
                        .map(n -> new TransactionTypeConfig(n, 0, 0))
                        .toList())
                .phases(all.phases())
                .parameters(p)
                .build();
    }
}
