package org.ivsbench.stats;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.op.Outcome;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The size buckets of latency_by_size.csv and the file itself, on hand-made operations. */
class LatencyBySizeTest {
    @TempDir
    Path dir;

    /** The bucket's lower bound found by doubling, not by bit arithmetic: 0 for 0, else the largest 2^k <= size. */
    private static long lowerByDoubling(long size) {
        if (size == 0) {
            return 0;
        }
        long p = 1;
        while (p <= size / 2) {
            p *= 2;
        }
        return p;
    }

    @Test
    void everySizeFallsInTheLog2BucketThatHoldsIt() {
        long[] sizes = {
            0,
            1,
            2,
            3,
            4,
            7,
            8,
            99,
            100,
            127,
            128,
            129,
            1000,
            1023,
            1024,
            1025,
            65_535,
            65_536,
            1_600_000,
            16_000_000,
            (1L << 40) - 1,
            1L << 40,
            Long.MAX_VALUE
        };
        for (long size : sizes) {
            int b = SizeLatency.bucket(size);
            assertEquals(lowerByDoubling(size), SizeLatency.low(b), "low of " + size);
            assertTrue(size < SizeLatency.high(b) || size == Long.MAX_VALUE, "high of " + size);
            assertTrue(b < SizeLatency.SIZE_BUCKETS, "bucket of " + size);
        }
        assertEquals(1, SizeLatency.high(0));
        assertEquals(2, SizeLatency.high(SizeLatency.bucket(1)));
        assertEquals(128, SizeLatency.high(SizeLatency.bucket(100)));
        assertEquals(SizeLatency.UNKNOWN, SizeLatency.bucket(-1));
        // Adjacent buckets tile the sizes: each starts where the one before ends.
        for (int b = 1; b < SizeLatency.SIZE_BUCKETS; b++) {
            assertEquals(SizeLatency.high(b - 1), SizeLatency.low(b), "bucket " + b);
        }
    }

    @Test
    void theFileHoldsOneRowPerPhaseTypeAndBucketWithExactFiguresForSmallLatencies() throws Exception {
        PhaseStats read = new PhaseStats(0, "p0", List.of("ReadRecord", "ExtendRecord"));
        // Latencies under 256 us are held exactly by a 2-digit histogram: the figures below are exact.
        read.record(0, Outcome.OK, 10_000, 10_000, 100, 0, null, 100);
        read.record(0, Outcome.OK, 30_000, 30_000, 120, 0, null, 120);
        read.record(0, Outcome.OK, 20_000, 20_000, 127, 0, null, 127);
        read.record(0, Outcome.OK, 50_000, 40_000, 128, 0, null, 128);
        read.record(0, Outcome.ABORTED, 7_000, 7_000, 0, 0, "not found", -1);
        read.record(1, Outcome.OK, 1_000, 1_000, 0, 0, null, 0);
        read.record(1, Outcome.ERROR, 3_000, 3_000, 0, 0, "database error"); // no size: unknown
        PhaseStats other = new PhaseStats(1, "p1", List.of("ReadRecord", "ExtendRecord"));
        other.record(1, Outcome.SKIPPED, 200_000, 200_000, 1_600_000, 0, "cap", 1_600_000);
        other.recordWarmup(); // warmup is counted, never in a figure
        Path file = dir.resolve("latency_by_size.csv");
        LatencyBySizeCsv.write(file, List.of(read, other));
        assertEquals(
                List.of(
                        "phase,type,bucket_lo,bucket_hi,count,lat_avg_us,lat_p50_us,lat_p90_us,lat_p99_us,lat_max_us",
                        "0,ReadRecord,64,128,3,20.000,20,30,30,30",
                        "0,ReadRecord,128,256,1,50.000,50,50,50,50",
                        "0,ReadRecord,,,1,7.000,7,7,7,7",
                        "0,ExtendRecord,0,1,1,1.000,1,1,1,1",
                        "0,ExtendRecord,,,1,3.000,3,3,3,3",
                        "1,ExtendRecord,1048576,2097152,1,200.000,200,200,200,200"),
                Files.readAllLines(file));
    }

    @Test
    void largeLatenciesAreWithinOnePercent() {
        SizeLatency s = new SizeLatency(List.of("A"));
        long[] micros = {1_000, 12_345, 250_000, 4_000_000};
        for (long us : micros) {
            s.record(0, 5_000, us);
        }
        List<SizeLatency.Row> rows = s.rows();
        assertEquals(1, rows.size());
        SizeLatency.Row r = rows.get(0);
        assertEquals(4096L, r.bucketLow());
        assertEquals(8192L, r.bucketHigh());
        assertEquals(4, r.count());
        double mean = (1_000 + 12_345 + 250_000 + 4_000_000) / 4.0;
        assertEquals(mean, r.avgUs(), mean * 0.01);
        assertEquals(4_000_000, r.maxUs(), 4_000_000 * 0.01);
        assertEquals(12_345, r.p50Us(), 12_345 * 0.01);
    }
}
