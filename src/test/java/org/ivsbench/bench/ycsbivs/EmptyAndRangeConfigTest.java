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
import org.ivsbench.config.PhaseConfig;
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
                        + " RangeDeleteRecord, RangeReadByKeysRecord",
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

    @Test
    void rangeReadsByKeysNeedKeyOrderOnTheServerAndInTheKeyNames() throws ConfigException {
        String path = "transactiontypes/transactiontype[2]/name: 'RangeReadByKeysRecord' ";
        assertEquals(
                path + "is not available for type CASSANDRA (Apache Cassandra does not keep records in key order, so it"
                        + " cannot read the records between two keys); use RangeReadRecord or remove it",
                assertThrows(ConfigException.class, () -> validateByKeys(CASSANDRA, Map.of(), 0))
                        .getMessage());
        String needs = path + "needs keys whose string order is their number order (its end key is the n-th key after"
                + " its start): ";
        assertEquals(
                needs + "the keys are hashed (keyorder hashed)",
                assertThrows(ConfigException.class, () -> validateByKeys(SQLITE, Map.of(), 50))
                        .getMessage());
        assertEquals(
                needs + "YCSB's ordered keys are not zero-padded (user10 sorts before user9); a <keys> shape pads them,"
                        + " e.g. <keys><length>14</length></keys>",
                assertThrows(ConfigException.class, () -> validateByKeys(SQLITE, Map.of("keyorder", "ordered"), 50))
                        .getMessage());
        assertEquals(
                needs + "a key's prefix segments are drawn per key number, so prefixes do not follow number order",
                assertThrows(
                                ConfigException.class,
                                () -> validateByKeys(
                                        SQLITE, Map.of("keyorder", "ordered", "keys/prefix", "tenant:4"), 50))
                        .getMessage());
        // Listed but given no weight anywhere, it asks nothing of the keys.
        validateByKeys(SQLITE, Map.of(), 0);
        // Padded ordered keys: accepted, and their string order is their number order.
        Map<String, String> padded = Map.of("keyorder", "ordered", "keys/length", "14");
        validateByKeys(SQLITE, padded, 50);
        YcsbIvsParameters p = YcsbIvsParameters.from(withTypes(SQLITE, padded, List.of()));
        for (long n = 0; n < 2_000; n++) {
            assertTrue(p.keyName(n).compareTo(p.keyName(n + 1)) < 0, p.keyName(n) + " < " + p.keyName(n + 1));
        }
        assertEquals("user0000000012", p.keyName(12));
    }

    /** ReadRecord and RangeReadByKeysRecord, the second with {@code weight} in the one phase. */
    private static void validateByKeys(TargetConfig target, Map<String, String> p, double weight)
            throws ConfigException {
        BenchmarkConfig config = BenchmarkConfig.builder(target)
                .transactionTypes(List.of(
                        new TransactionTypeConfig("ReadRecord", 0, 0),
                        new TransactionTypeConfig("RangeReadByKeysRecord", 0, 0)))
                .phases(List.of(PhaseConfig.builder(0)
                        .name("phase")
                        .count(10)
                        .weights(List.of(100 - weight, weight))
                        .parameters(Map.of("distribution", "uniform"))
                        .build()))
                .parameters(p)
                .build();
        new YcsbIvsModule().validate(config);
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
