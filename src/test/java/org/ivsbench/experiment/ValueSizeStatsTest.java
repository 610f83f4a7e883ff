package org.ivsbench.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;

/** The per-epoch value-size figures (epochs.csv, value_sizes.csv) against sizes worked out by hand. */
class ValueSizeStatsTest {
    @Test
    void figuresOfAKnownSetOfSizes() {
        ValueSizeStats s = new ValueSizeStats();
        s.addValue(0);
        s.addValue(1);
        for (int i = 0; i < 97; i++) {
            s.addValue(100);
        }
        s.addValue(1_600_000);
        assertEquals(100, s.values());
        assertEquals(0, s.min());
        assertEquals(1_600_000, s.max());
        assertEquals(1 + 9700 + 1_600_000, s.totalBytes());
        assertEquals((1 + 9700 + 1_600_000) / 100.0, s.average(), 1e-9);
        assertEquals(100, s.p50());
        assertEquals(100, s.p99(), "the 99th of 100 sorted sizes is still 100; only the largest is 1.6 MB");
        // log2 buckets: [0,1) holds empty values, [1,2), [64,128), [2^20, 2^21).
        assertEquals(Map.of(0L, 1L, 1L, 1L, 64L, 97L, 1_048_576L, 1L), s.buckets());
        assertEquals(2_097_152L, ValueSizeStats.bucketHigh(1_048_576L));
        assertEquals(1L, ValueSizeStats.bucketHigh(0L));
    }

    @Test
    void uniformBaselineSizes() {
        ValueSizeStats s = ValueSizeStats.uniform(200, 10, 350);
        assertEquals(200, s.records());
        assertEquals(2000, s.values());
        assertEquals(700_000, s.totalBytes());
        assertEquals(350, s.min());
        assertEquals(350, s.max());
        assertEquals(350, s.p99());
    }

    @Test
    void aRowCutShortOrOfAnUnfinishedEpochIsDroppedOnResume() {
        String header = EpochsCsv.SIZES_HEADER;
        assertTrue(EpochsCsv.finishedRow("2,64,128,97", header, 2));
        assertFalse(EpochsCsv.finishedRow("3,64,128,97", header, 2), "unfinished epoch");
        assertFalse(EpochsCsv.finishedRow("2,64,12", header, 2), "cut short");
        assertFalse(EpochsCsv.finishedRow("1", header, 2), "cut short before the first comma");
        assertFalse(EpochsCsv.finishedRow("", header, 2));
        assertFalse(EpochsCsv.finishedRow(header, header, 2));
    }
}
