package org.ivsbench.random;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The live-key set: rank/select against a sorted-set model, and what the choosers may and may not pick. */
class LiveKeysTest {
    @Test
    void selectAgreesWithASortedSetThroughAddsRemovesAndGrowth() {
        RankedBits bits = new RankedBits(100);
        TreeSet<Long> model = new TreeSet<>();
        SplittableRandom r = new SplittableRandom(7);
        for (int step = 0; step < 20_000; step++) {
            long n = r.nextLong(step < 10_000 ? 3_000 : 40_000); // the second half grows the set past its blocks
            if (r.nextInt(3) == 0) {
                assertEquals(model.remove(n), bits.remove(n), "remove " + n);
            } else {
                assertEquals(model.add(n), bits.add(n), "add " + n);
            }
            if (step % 997 == 0) {
                assertSameMembers(model, bits);
            }
        }
        assertSameMembers(model, bits);
    }

    @Test
    void addRangeIsTheSameAsAddingOneByOne() {
        RankedBits range = new RankedBits();
        range.add(5);
        range.addRange(3, 2_000);
        TreeSet<Long> model = new TreeSet<>();
        for (long n = 3; n < 2_000; n++) {
            model.add(n);
        }
        assertSameMembers(model, range);
    }

    private static void assertSameMembers(TreeSet<Long> model, RankedBits bits) {
        assertEquals(model.size(), bits.count());
        long rank = 0;
        for (long member : model) {
            assertEquals(member, bits.select(rank++), "rank " + (rank - 1));
            assertTrue(bits.contains(member));
        }
        // rank(n) counts the members below n, members or not, up to past the highest
        for (long n = -1; n <= (model.isEmpty() ? 0 : model.last() + 130); n += n < 0 ? 1 : 1 + n % 37) {
            assertEquals(model.headSet(n, false).size(), bits.rank(n), "rank(" + n + ")");
        }
    }

    /** The model's answer: the member {@code steps} places after {@code from}'s position, or its last. */
    private static long afterInModel(TreeSet<Long> model, long from, long steps) {
        List<Long> tail = new ArrayList<>(model.tailSet(from, true));
        return tail.isEmpty() ? model.last() : tail.get((int) Math.min(steps, tail.size() - 1));
    }

    @Test
    void liveAfterIsTheKeyStepsPlacesOnInNumberOrderThroughDeletesAndInserts() {
        for (boolean hotRange : new boolean[] {false, true}) {
            LiveKeys keys = hotRange ? new LiveKeys(3_000, null, n -> n % 7 == 0, 0.5) : new LiveKeys(3_000);
            TreeSet<Long> model = new TreeSet<>();
            for (long n = 0; n < 3_000; n++) {
                model.add(n);
            }
            SplittableRandom r = new SplittableRandom(11);
            LongGenerator uniform = new UniformLongGenerator(0, 2_999);
            for (int step = 0; step < 4_000; step++) {
                if (step % 3 == 0) {
                    long k = keys.takeLive(uniform, 3_000, r);
                    keys.deleted(k, true);
                    model.remove(k);
                } else if (step % 3 == 1) {
                    long k = keys.reserveInsert();
                    keys.inserted(k, true);
                    model.add(k);
                }
                long from = model.isEmpty() ? 0 : r.nextLong(model.last() + 1);
                long steps = r.nextLong(step % 50 == 0 ? 5_000 : 60); // now and then past the last key
                assertEquals(
                        afterInModel(model, from, steps),
                        keys.liveAfter(from, steps),
                        "hot range " + hotRange + ", step " + step + ": " + steps + " after " + from);
            }
            assertEquals(model.size(), keys.liveCount());
        }
    }

    @Test
    void takeRangeTakesTheStartAndTheStepsLiveKeysAfterItAndOnlyThoseBecomeGone() {
        for (boolean hotRange : new boolean[] {false, true}) {
            LiveKeys keys = hotRange ? new LiveKeys(3_000, null, n -> n % 7 == 0, 0.5) : new LiveKeys(3_000);
            TreeSet<Long> live = new TreeSet<>();
            TreeSet<Long> gone = new TreeSet<>();
            for (long n = 0; n < 3_000; n++) {
                live.add(n);
            }
            SplittableRandom r = new SplittableRandom(13);
            for (int step = 0; step < 2_000 && !live.isEmpty(); step++) {
                if (step % 4 == 0) {
                    long k = keys.reserveInsert();
                    keys.inserted(k, true);
                    live.add(k);
                }
                long from = r.nextLong(live.last() + 2); // now and then past the last live key
                long steps = r.nextLong(step % 50 == 0 ? 5_000 : 8);
                List<Long> expected = new ArrayList<>(live.tailSet(from, true));
                expected = expected.subList(0, (int) Math.min(expected.size(), steps + 1));
                long[] taken = keys.takeRange(from, steps);
                assertEquals(expected, Arrays.stream(taken).boxed().toList(), "step " + step);
                for (long k : taken) {
                    assertFalse(keys.isLive(k), "taken keys stop being live at once");
                    assertFalse(keys.isGone(k), "and are not gone before the delete ended");
                }
                boolean absent = step % 10 != 3; // now and then the delete failed: the keys stay unknown
                keys.deleted(taken, absent);
                live.removeAll(expected);
                if (absent) {
                    gone.addAll(expected);
                }
            }
            assertEquals(live.size(), keys.liveCount(), "hot range " + hotRange);
            assertEquals(gone.size(), keys.goneCount(), "hot range " + hotRange);
            for (long n = 0; n < keys.nextNumber(); n++) {
                assertEquals(live.contains(n), keys.isLive(n), "live " + n);
                assertEquals(gone.contains(n), keys.isGone(n), "gone " + n);
            }
        }
    }

    @Test
    void liveAfterAnEmptySetIsNone() {
        LiveKeys keys = new LiveKeys(1);
        keys.deleted(keys.takeLive(r -> 0, 1, new SplittableRandom(1)), true);
        assertEquals(LiveKeys.NONE, keys.liveAfter(0, 3));
    }

    @Test
    void anUntouchedKeySpaceDrawsExactlyTheDenseKeysWithoutExtraDraws() {
        LiveKeys keys = new LiveKeys(1000);
        LongGenerator zipf = new ZipfianGenerator(0, 999, 0.99, new ZetaCache());
        SplittableRandom a = new SplittableRandom(11);
        SplittableRandom b = new SplittableRandom(11);
        for (int i = 0; i < 10_000; i++) {
            assertEquals(zipf.next(b), keys.pickLive(zipf, 1000, a));
        }
    }

    @Test
    void readsNeverPickADeletedKeyAndEmptyOperationsPickOnlyDeletedOnes() {
        LiveKeys keys = new LiveKeys(500);
        LongGenerator uniform = new UniformLongGenerator(0, 499);
        SplittableRandom r = new SplittableRandom(3);
        TreeSet<Long> deleted = new TreeSet<>();
        for (int i = 0; i < 200; i++) {
            long k = keys.takeLive(uniform, 500, r);
            assertFalse(keys.isLive(k));
            assertTrue(deleted.add(k), "a key taken twice: " + k);
            keys.deleted(k, true);
        }
        assertEquals(300, keys.liveCount());
        assertEquals(200, keys.goneCount());
        for (int i = 0; i < 20_000; i++) {
            long live = keys.pickLive(uniform, 500, r);
            assertFalse(deleted.contains(live), "picked deleted key " + live);
            assertTrue(deleted.contains(keys.pickGone(uniform, 500, r)));
        }
    }

    @Test
    void uniformStaysUniformOverTheLiveKeysAfterTheSetChanged() {
        LiveKeys keys = new LiveKeys(100);
        for (int i = 0; i < 50; i++) {
            keys.inserted(keys.reserveInsert(), true); // 150 live over 100 cells
        }
        LongGenerator uniform = new UniformLongGenerator(0, 99);
        SplittableRandom r = new SplittableRandom(5);
        int[] hits = new int[150];
        int draws = 150_000;
        for (int i = 0; i < draws; i++) {
            hits[(int) keys.pickLive(uniform, 100, r)]++;
        }
        for (int k = 0; k < 150; k++) {
            // expected 1,000 each; 6 standard deviations (about 190) bound a fair seeded draw
            assertEquals(1000, hits[k], 190, "key " + k);
        }
    }

    @Test
    void insertsTakeFreshNumbersAndOnlySuccessfulOnesBecomeLive() {
        LiveKeys keys = new LiveKeys(10);
        long a = keys.reserveInsert();
        long b = keys.reserveInsert();
        assertEquals(10, a);
        assertEquals(11, b);
        assertFalse(keys.isLive(a), "not live while in flight");
        keys.inserted(a, true);
        keys.inserted(b, false);
        assertTrue(keys.isLive(a));
        assertFalse(keys.isLive(b));
        assertFalse(keys.isGone(b));
        assertEquals(11, keys.liveCount());
        assertEquals(12, keys.nextNumber());
    }

    @Test
    void plannedInsertsTakeTheirOrderThenContinueInTurn() {
        LiveKeys keys = new LiveKeys(10, new int[] {2, 0, 1});
        assertEquals(12, keys.reserveInsert());
        assertEquals(13, keys.nextNumber(), "every planned number is below the bound once inserts began");
        assertEquals(10, keys.reserveInsert());
        assertEquals(11, keys.reserveInsert());
        assertEquals(13, keys.reserveInsert());
        assertEquals(14, keys.reserveInsert());
        assertEquals(15, keys.nextNumber());
    }

    @Test
    void anEmptySetHasNothingToPick() {
        LiveKeys keys = new LiveKeys(0);
        LongGenerator one = r -> 0;
        assertEquals(LiveKeys.NONE, keys.pickLive(one, 1, new SplittableRandom(1)));
        assertEquals(LiveKeys.NONE, keys.pickGone(one, 1, new SplittableRandom(1)));
        assertEquals(LiveKeys.NONE, keys.takeLive(one, 1, new SplittableRandom(1)));
    }

    @Test
    void aDeleteThatFailedLeavesTheKeyNeitherLiveNorGone() {
        LiveKeys keys = new LiveKeys(1);
        long k = keys.takeLive(r -> 0, 1, new SplittableRandom(1));
        keys.deleted(k, false);
        assertFalse(keys.isLive(k));
        assertFalse(keys.isGone(k));
    }

    @Test
    void sameSeedSamePicks() {
        List<Long> first = picks();
        assertEquals(first, picks());
    }

    private static List<Long> picks() {
        LiveKeys keys = new LiveKeys(300);
        LongGenerator zipf = ScrambledZipfianGenerator.forCoreWorkload(300);
        SplittableRandom r = new SplittableRandom(99);
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            if (i % 10 == 0) { // 200 of the 300 keys deleted along the way
                long k = keys.takeLive(zipf, 300, r);
                keys.deleted(k, true);
                out.add(-k);
            } else {
                out.add(keys.pickLive(zipf, 300, r));
            }
        }
        return out;
    }

    @Test
    void theRankKeepsTheQuantileOfTheCell() {
        SplittableRandom r = new SplittableRandom(1);
        assertEquals(7, LiveKeys.rank(7, 10, 10, r));
        for (int i = 0; i < 1000; i++) {
            long rank = LiveKeys.rank(3, 10, 100, r); // cell 3 of 10 is ranks 30..39 of 100
            assertTrue(rank >= 30 && rank < 40, "rank " + rank);
            assertEquals(0, LiveKeys.rank(3, 10, 1, r));
        }
    }

    @Test
    void aHotRangeGetsItsShareOfTheChoicesWhateverItsShareOfTheKeys() {
        // the hot keys are the multiples of 10 (a tenth of them); they get 90 % of the choices, uniform within
        LiveKeys keys = new LiveKeys(10_000, null, n -> n % 10 == 0, 0.9);
        assertEquals(1_000, keys.hotLiveCount());
        assertEquals(10_000, keys.liveCount());
        LongGenerator uniform = new UniformLongGenerator(0, 9_999);
        SplittableRandom r = new SplittableRandom(3);
        int draws = 100_000;
        int hot = 0;
        int[] perHotKey = new int[1_000];
        for (int i = 0; i < draws; i++) {
            long k = keys.pickLive(uniform, 10_000, r);
            assertTrue(keys.isLive(k));
            if (k % 10 == 0) {
                hot++;
                perHotKey[(int) (k / 10)]++;
            }
        }
        // binomial: sd of the share sqrt(0.9 * 0.1 / 100,000) = 0.00095; five of them either side
        assertEquals(0.9, (double) hot / draws, 5 * Math.sqrt(0.09 / draws));
        // uniform within the hot range: every hot key about 90 times (Poisson sd 9.5); none missed, none 2x
        for (int c : perHotKey) {
            assertTrue(c > 40 && c < 150, "a hot key chosen " + c + " times");
        }
    }

    @Test
    void aHotRangeFollowsItsKeysThroughDeletesAndInserts() {
        LiveKeys keys = new LiveKeys(100, null, n -> n < 10 || n >= 100 && n < 105, 1.0);
        LongGenerator uniform = new UniformLongGenerator(0, 99);
        SplittableRandom r = new SplittableRandom(8);
        // share 1: every choice is hot; deleting all ten hot keys leaves only the rest to choose
        for (int i = 0; i < 10; i++) {
            long k = keys.takeLive(uniform, 100, r);
            assertTrue(k < 10, "a taken key outside the hot range: " + k);
            keys.deleted(k, true);
        }
        assertEquals(0, keys.hotLiveCount());
        assertEquals(10, keys.goneCount());
        assertTrue(keys.pickLive(uniform, 100, r) >= 10, "with the hot range empty, the rest");
        long gone = keys.pickGone(uniform, 100, r);
        assertTrue(gone < 10 && keys.isGone(gone), "empty operations pick among the gone keys: " + gone);
        // inserts 100..104 are hot again
        for (int i = 0; i < 5; i++) {
            keys.inserted(keys.reserveInsert(), true);
        }
        assertEquals(5, keys.hotLiveCount());
        for (int i = 0; i < 200; i++) {
            long k = keys.pickLive(uniform, 100, r);
            assertTrue(k >= 100 && k < 105, "share 1 and hot keys live again: " + k);
        }
    }

    @Test
    void withoutAHotRangeTheDrawsAreTheSameAsBefore() {
        LiveKeys plain = new LiveKeys(300);
        LiveKeys none = new LiveKeys(300, null, null, 0);
        LongGenerator zipf = ScrambledZipfianGenerator.forCoreWorkload(300);
        SplittableRandom a = new SplittableRandom(4);
        SplittableRandom b = new SplittableRandom(4);
        for (int i = 0; i < 1_000; i++) {
            assertEquals(plain.pickLive(zipf, 310, a), none.pickLive(zipf, 310, b));
        }
    }

    @Test
    void aMillionLiveKeysTakeUnderOneByteEach() {
        LiveKeys keys = new LiveKeys(1_000_000);
        assertEquals(1_000_000, keys.liveCount());
        // two bitsets over 1,000,448 numbers (whole blocks) plus their rank indexes: about 0.27 bytes per key
        assertTrue(keys.footprintBytes() < 300_000, "footprint " + keys.footprintBytes());
    }
}
