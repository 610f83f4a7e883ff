package org.ivsbench.random;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.commons.statistics.inference.ChiSquareTest;
import org.junit.jupiter.api.Test;

import org.ivsbench.random.KeyShape.Segment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KeyShapeTest {
    private static final List<Segment> TENANT_USER = List.of(new Segment("tenant", 10), new Segment("user", 100));

    private static KeyShape composite(boolean ordered, LengthDistribution lengths, long seed) {
        LongGenerator uniform =
                KeyDistributions.generator(KeyDistributions.parse("uniform"), 1000, null, new ZetaCache());
        return KeyShape.shaped(ordered, TENANT_USER, uniform, lengths, seed);
    }

    @Test
    void plainShapeIsYcsbs() {
        for (long n : new long[] {0, 1, 42, 123_456_789}) {
            assertEquals(KeyNames.key(n, false), KeyShape.plain(false).key(n));
            assertEquals(KeyNames.key(n, true), KeyShape.plain(true).key(n));
        }
        assertEquals("user6284781860667377211", KeyShape.plain(false).key(0));
    }

    @Test
    void shapedKeysPadOrderedNumbersSoStringOrderIsNumberOrder() {
        KeyShape ordered = KeyShape.shaped(true, List.of(), null, null, 1);
        assertEquals("user0000000009", ordered.key(9));
        assertTrue(ordered.key(9).compareTo(ordered.key(10)) < 0);
        // Hashed without a prefix or length is YCSB's key.
        assertEquals(
                KeyNames.key(77, false),
                KeyShape.shaped(false, List.of(), null, null, 1).key(77));
    }

    @Test
    void prefixesAreZeroPaddedSegmentsInIndexOrder() {
        KeyShape shape = composite(true, null, 3);
        assertEquals(1000, shape.prefixCount());
        assertEquals("tenant0/user00/", shape.prefix(0));
        assertEquals("tenant3/user07/", shape.prefix(307));
        assertEquals("tenant9/user99/", shape.prefix(999));
        String key = shape.key(12);
        assertEquals(shape.prefix(shape.prefixIndex(12)) + "0000000012", key);
        List<String> prefixes = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            prefixes.add(shape.prefix(i));
        }
        List<String> sorted = new ArrayList<>(prefixes);
        sorted.sort(null);
        assertEquals(sorted, prefixes);
    }

    @Test
    void keysAreAFunctionOfSeedAndNumber() {
        LengthDistribution lengths = LengthDistribution.parse("uniform(min=30, max=50)", 1, 1, 255, 255);
        KeyShape a = composite(false, lengths, 5);
        KeyShape b = composite(false, lengths, 5);
        int differ = 0;
        for (long n = 0; n < 200; n++) {
            assertEquals(a.key(n), b.key(n));
            assertTrue(a.key(n).length() >= 30 && a.key(n).length() <= 50, a.key(n));
            if (!a.key(n).equals(composite(false, lengths, 6).key(n))) {
                differ++;
            }
        }
        assertTrue(differ > 150, "another seed gives other prefixes and padding: " + differ);
    }

    @Test
    void paddingNeverCutsANaturalKeyNorChangesTheOrderOfOrderedOnes() {
        LengthDistribution shortOnes = LengthDistribution.parse("uniform(min=1, max=40)", 1, 1, 255, 255);
        KeyShape shape = composite(true, shortOnes, 9);
        String previous = null;
        for (long n = 0; n < 500; n++) {
            String key = shape.key(n);
            assertTrue(key.length() >= "tenant0/user00/0000000000".length(), key);
            if (previous != null && shape.prefixIndex(n) == shape.prefixIndex(n - 1)) {
                assertTrue(previous.compareTo(key) < 0, previous + " then " + key);
            }
            previous = key;
        }
    }

    @Test
    void keysPerPrefixFollowThePrefixDistribution() {
        // zipfian-unscrambled(theta=0.9) over 20 prefixes: prefix 0 hottest, then 1, ...
        KeyShape shape = KeyShape.shaped(
                true,
                List.of(new Segment("tenant", 4), new Segment("user", 5)),
                KeyDistributions.generator(
                        KeyDistributions.parse("zipfian-unscrambled(theta=0.9)"), 20, null, new ZetaCache()),
                null,
                2);
        long[] observed = new long[20];
        for (long n = 0; n < 100_000; n++) {
            observed[(int) shape.prefixIndex(n)]++;
        }
        // The shares of YCSB's Zipfian generator (Gray et al.'s closed form), as the key distribution tests use.
        double[] share = KeyDistributionsFitTest.zipfRanks(20, 0.9);
        double p = ChiSquareTest.withDefaults().test(share, observed).getPValue();
        assertTrue(p > KeyDistributionsFitTest.ALPHA, "p " + p + " for " + Arrays.toString(observed));
        assertTrue(observed[0] > 5 * observed[19], "prefix 0 is the hot one");
    }

    @Test
    void loadOrderSortsByPrefixThenNumber() {
        KeyShape shape = composite(true, null, 4);
        int[] sorted = LoadOrder.sortedKeynums(shape, 3000);
        for (int i = 1; i < sorted.length; i++) {
            assertTrue(shape.key(sorted[i - 1]).compareTo(shape.key(sorted[i])) < 0, "position " + i);
        }
        LoadOrder.Result r = LoadOrder.generate(shape, 3000, 0.4, 2999, Seeds.forStream(8, "keyorder", 0));
        List<String> inserted = new ArrayList<>();
        for (int keynum : r.keynums()) {
            inserted.add(shape.key(keynum));
        }
        assertEquals(Sortedness.of(inserted), r.measured());
        assertEquals(0.4, r.measured().k(), 0.05);
    }
}
