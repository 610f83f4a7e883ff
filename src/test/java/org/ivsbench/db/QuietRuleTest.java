package org.ivsbench.db;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The quiet decision on recorded gauge sequences: no clock, only the readings in order. */
class QuietRuleTest {

    private static List<QuietGauge> dirty(double pages) {
        // A 128 MB buffer pool: 8112 pages, 1% = 81.
        return List.of(QuietGauge.atMostOrSteady("Innodb_buffer_pool_pages_dirty", pages, 81));
    }

    /** The index (0-based) of the first reading after which the server is quiet, or -1. */
    private static int firstQuiet(List<List<QuietGauge>> sequence) {
        List<List<QuietGauge>> seen = new ArrayList<>();
        for (int i = 0; i < sequence.size(); i++) {
            seen.add(sequence.get(i));
            if (QuietRule.quiet(seen)) {
                return i;
            }
        }
        return -1;
    }

    @Test
    void dirtyPagesRecordedAfterABulkWriteAreQuietOnceThePageCleanerStops() {
        // Recorded once a second on the private MariaDB 10.11 after 40 MB of inserts: the cleaner stops at 459.
        double[] recorded = {1967, 1998, 1217, 1081, 918, 849, 718, 651, 526, 459, 459, 459, 459};
        List<List<QuietGauge>> seq = new ArrayList<>();
        for (double d : recorded) {
            seq.add(dirty(d));
        }
        // Three equal readings in a row: 459 at indexes 9, 10, 11.
        assertEquals(11, firstQuiet(seq));
    }

    @Test
    void aValueAtOrBelowTheLimitIsQuietAtOnce() {
        assertEquals(0, firstQuiet(List.of(dirty(24))));
        assertEquals(0, firstQuiet(List.of(dirty(81))));
        assertEquals(-1, firstQuiet(List.of(dirty(82))));
    }

    @Test
    void fallingOrRisingIsNotSteady() {
        assertEquals(-1, firstQuiet(List.of(dirty(500), dirty(400), dirty(300), dirty(200))));
        assertEquals(-1, firstQuiet(List.of(dirty(200), dirty(300), dirty(400), dirty(500))));
        // Two equal readings are not yet three.
        assertEquals(-1, firstQuiet(List.of(dirty(500), dirty(300), dirty(300))));
        // A pause in a fall (300, 300) followed by more falling is not quiet until three equal readings.
        assertEquals(5, firstQuiet(List.of(dirty(500), dirty(300), dirty(300), dirty(200), dirty(200), dirty(200))));
    }

    @Test
    void aGaugeWithoutTheSteadyRuleMustReachItsLimit() {
        List<List<QuietGauge>> seq = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            seq.add(List.of(QuietGauge.atMost("rocksdb.COMPACTION_PENDING", 1, 0)));
        }
        assertFalse(QuietRule.quiet(seq));
        assertEquals(List.of("rocksdb.COMPACTION_PENDING 1"), QuietRule.busy(seq));
        seq.add(List.of(QuietGauge.atMost("rocksdb.COMPACTION_PENDING", 0, 0)));
        assertTrue(QuietRule.quiet(seq));
    }

    @Test
    void everyGaugeMustBeQuietAndTheBusyOnesAreNamed() {
        List<List<QuietGauge>> seq = List.of(List.of(
                QuietGauge.atMostOrSteady("Innodb_buffer_pool_pages_dirty", 10, 81),
                QuietGauge.atMostOrSteady("Innodb_history_list_length", 2500, 100)));
        assertFalse(QuietRule.quiet(seq));
        assertEquals(List.of("Innodb_history_list_length 2500"), QuietRule.busy(seq));
    }

    @Test
    void aKindWithNoGaugesIsQuietAtItsFirstReadingAndNoReadingIsNotQuiet() {
        assertTrue(QuietRule.quiet(List.of(List.of())));
        assertFalse(QuietRule.quiet(List.of()));
    }

    @Test
    void aGaugeMissingFromAnEarlierReadingIsNotSteady() {
        QuietGauge history = QuietGauge.atMostOrSteady("Innodb_history_list_length", 0, 100);
        QuietGauge dirty = dirty(459).get(0);
        List<List<QuietGauge>> seq = new ArrayList<>(List.of(List.of(history), List.of(history, dirty)));
        seq.add(List.of(history, dirty));
        assertFalse(QuietRule.quiet(seq), "459 in two readings only");
        seq.add(List.of(history, dirty));
        assertTrue(QuietRule.quiet(seq));
    }
}
