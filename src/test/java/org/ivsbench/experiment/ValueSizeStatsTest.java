package org.ivsbench.experiment;

import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.ivsbench.db.Record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
    void percentilesAreSizesThatExistNotHistogramBucketBounds() {
        // 1 value of 100 and 99 at the 1,600,000 cap: the 50th and 99th smallest are 1,600,000 exactly (a
        // 3-digit histogram answers 1,600,511, above the cap and above the largest value).
        ValueSizeStats capped = new ValueSizeStats();
        capped.addValue(100);
        for (int i = 0; i < 99; i++) {
            capped.addValue(1_600_000);
        }
        assertEquals(1_600_000, capped.p50());
        assertEquals(1_600_000, capped.p99());
        assertTrue(capped.exactPercentiles());
        // 1,001 .. 1,200 (200 values): the 100th smallest is 1,100, the 198th is 1,198.
        ValueSizeStats ramp = new ValueSizeStats();
        for (int v = 1_200; v >= 1_001; v--) {
            ramp.addValue(v * 1000L + 1);
        }
        assertEquals(1_100_001, ramp.p50());
        assertEquals(1_198_001, ramp.p99());
    }

    @Test
    void pastTheDistinctLimitPercentilesStayWithinTheSizesSeenAndOneThousandth() {
        ValueSizeStats s = new ValueSizeStats();
        int n = ValueSizeStats.MAX_DISTINCT + 1;
        for (int i = 0; i < n; i++) {
            s.addValue(1_500_000L + i); // 1,500,000 .. 1,600,000: the 50th percentile is 1,550,000 exactly
        }
        assertFalse(s.exactPercentiles());
        long p50 = s.p50();
        assertTrue(Math.abs(p50 - 1_550_000) <= 1_550, "p50 " + p50);
        assertEquals(1_600_000, s.max());
        assertTrue(s.p99() <= s.max() && s.p99() >= 1_599_000 - 1_600, "p99 " + s.p99());
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

    private static Record record(String key, int... lengths) {
        Map<String, String> f = new LinkedHashMap<>();
        for (int i = 0; i < lengths.length; i++) {
            f.put("field" + i, "x".repeat(lengths[i]));
        }
        return new Record(key, f);
    }

    @Test
    void recordSizesSumEachRecordsFieldsAndRecordsAtTheCapAreCounted() {
        // Cap at 1,000 with +100 extends: a field of 901 or more cannot grow (901 + 100 > 1,000).
        ValueSizeStats s = ValueSizeStats.withCap(901);
        s.add(record("a", 100, 100)); // 200 bytes, no field at the cap
        s.add(record("b", 900, 100)); // 1,000 bytes, 900 can still take one extend
        s.add(record("c", 901, 0)); // 901 bytes, at the cap
        s.add(record("d", 1000, 1000)); // 2,000 bytes, two capped fields: one record
        ValueSizeStats r = s.recordSizes();
        assertEquals(4, r.values());
        assertEquals(200, r.min());
        assertEquals(2000, r.max());
        assertEquals((200 + 1000 + 901 + 2000) / 4.0, r.average(), 1e-9);
        assertEquals(901, r.p50(), "the 2nd of 200, 901, 1000, 2000");
        assertEquals(2000, r.p99());
        assertEquals(2, s.recordsAtCap());
        assertEquals(8, s.values(), "the field-level figures are unchanged");
    }

    @Test
    void aUniformTableHasUniformRecords() {
        ValueSizeStats s = ValueSizeStats.uniform(50, 10, 300);
        assertEquals(500, s.values());
        ValueSizeStats r = s.recordSizes();
        assertEquals(50, r.values());
        assertEquals(3000, r.min());
        assertEquals(3000, r.p99());
        assertEquals(150_000, r.totalBytes());
        assertEquals(0, s.recordsAtCap());
    }
}
