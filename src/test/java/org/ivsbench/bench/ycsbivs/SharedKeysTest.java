package org.ivsbench.bench.ycsbivs;

import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import org.ivsbench.config.PhaseConfig;
import org.ivsbench.random.CounterGenerator;
import org.ivsbench.random.KeyDistributions;
import org.ivsbench.random.LongGenerator;
import org.ivsbench.random.ScrambledZipfianGenerator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * "zipfian" with inserts is sized as YCSB's CoreWorkload sizes it: ScrambledZipfianGenerator(insertstart,
 * insertstart + recordcount + expectednewkeys) with expectednewkeys = (int) (operationcount x insertproportion
 * x 2.0), keys above the last finished insert redrawn. For a count phase operationcount is its count and
 * insertproportion the insert weight's share.
 */
class SharedKeysTest {
    private static final long RECORDS = 1000;

    private static PhaseConfig phase(long count, long time, double scan, double insert) {
        return PhaseConfig.builder(0)
                .count(count)
                .timeSeconds(time)
                .weights(List.of(scan, insert))
                .build();
    }

    @Test
    void expectedNewKeysFollowYcsbsArithmetic() {
        SharedKeys keys = new SharedKeys(RECORDS, 1);
        // Workload E: 95 % scans, 5 % inserts.
        assertEquals(1000, keys.expectedNewKeys(phase(10_000, 0, 95, 5)));
        assertEquals((long) (333 * 0.05 * 2.0), keys.expectedNewKeys(phase(333, 0, 95, 5)), "truncated like YCSB");
        assertEquals(33, keys.expectedNewKeys(phase(333, 0, 95, 5)));
        assertEquals(0, keys.expectedNewKeys(phase(0, 60, 95, 5)), "a time phase: YCSB without operationcount");
        assertEquals(0, keys.expectedNewKeys(phase(10_000, 0, 100, 0)));
        assertEquals(1000, ScrambledZipfianGenerator.expectedNewKeys(10_000, 0.05));
    }

    @Test
    void zipfianDrawsAsCoreWorkloadAndReachesInsertedKeys() {
        SharedKeys keys = new SharedKeys(RECORDS, 1);
        CounterGenerator inserts = keys.insertCounter();
        for (int i = 0; i < 1000; i++) {
            inserts.acknowledge(inserts.next()); // 1,000 inserts done: keys 0 .. 1999 exist
        }
        LongGenerator ours = keys.keyGenerator(KeyDistributions.parse("zipfian"), phase(10_000, 0, 95, 5));
        // CoreWorkload: new ScrambledZipfianGenerator(0, 0 + 1000 + 1000), redraw above the last insert.
        LongGenerator ycsb = new ScrambledZipfianGenerator(0, RECORDS + 1000);
        SplittableRandom a = new SplittableRandom(5);
        SplittableRandom b = new SplittableRandom(5);
        long inserted = 0;
        for (int i = 0; i < 100_000; i++) {
            long expected;
            do {
                expected = ycsb.next(b);
            } while (expected > inserts.lastValue());
            long k = ours.next(a);
            assertEquals(expected, k, "draw " + i);
            if (k >= RECORDS) {
                inserted++;
            }
        }
        assertTrue(inserted > 1000, "inserted keys are chosen: " + inserted + " of 100,000 draws");
    }
}
