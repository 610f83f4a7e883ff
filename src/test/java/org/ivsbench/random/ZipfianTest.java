package org.ivsbench.random;

import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ZipfianTest {
    private static final int RECORDS = 10_000;
    private static final int DRAWS = 5_000_000;

    /** zeta summed from the small terms up, independently of the generator's code. */
    private static double zetaReference(int n, double theta) {
        double sum = 0;
        for (int i = n; i >= 1; i--) {
            sum += Math.exp(-theta * Math.log(i));
        }
        return sum;
    }

    private static int[] counts(LongGenerator g, long seed, int buckets, int draws) {
        SplittableRandom r = new SplittableRandom(seed);
        int[] counts = new int[buckets];
        for (int i = 0; i < draws; i++) {
            long k = g.next(r);
            assertTrue(k >= 0 && k < buckets, "key out of range: " + k);
            counts[(int) k]++;
        }
        return counts;
    }

    private static int[] hottest(int[] counts, int n) {
        return IntStream.range(0, counts.length)
                .boxed()
                .sorted(Comparator.comparingInt((Integer k) -> counts[k]).reversed())
                .limit(n)
                .mapToInt(Integer::intValue)
                .toArray();
    }

    @Test
    void scrambledZipfianReproducesYcsbHotKeyShares() {
        double[] expectedPercent = {3.81, 1.93, 1.57, 1.12, 0.90};
        int[] countsA = counts(ScrambledZipfianGenerator.forCoreWorkload(RECORDS), 1, RECORDS, DRAWS);
        int[] hotA = hottest(countsA, 5);
        for (int i = 0; i < 5; i++) {
            double percent = 100.0 * countsA[hotA[i]] / DRAWS;
            assertEquals(expectedPercent[i], percent, 0.1, "share of hot key #" + (i + 1) + " (key " + hotA[i] + ")");
        }

        int[] countsB = counts(ScrambledZipfianGenerator.forCoreWorkload(RECORDS), 987_654_321L, RECORDS, DRAWS / 5);
        Set<Integer> setA = new HashSet<>();
        Set<Integer> setB = new HashSet<>();
        Arrays.stream(hotA).forEach(setA::add);
        Arrays.stream(hottest(countsB, 5)).forEach(setB::add);
        assertEquals(setA, setB, "the hot set must not depend on the seed");
    }

    @Test
    void scrambledZipfianHotSetDependsOnTheOffByOneItemCount() {
        // Without CoreWorkload's extra item the keys collide differently modulo the item count:
        // the hottest key of [0, 9999] is not the hottest of [0, 10000].
        int[] ycsb = counts(ScrambledZipfianGenerator.forCoreWorkload(RECORDS), 3, RECORDS, 200_000);
        int[] plain = counts(new ScrambledZipfianGenerator(0, RECORDS - 1), 3, RECORDS, 200_000);
        assertEquals(Fnv.fnv64(0) % (RECORDS + 1), hottest(ycsb, 1)[0]);
        assertEquals(Fnv.fnv64(0) % RECORDS, hottest(plain, 1)[0]);
    }

    @Test
    void unscrambledZipfianFavoursItemZeroByOneOverZeta() {
        int n = 100;
        double zeta = zetaReference(n, 0.99);
        assertEquals(zeta, Zeta.zeta(n, 0.99), 1e-9);
        int draws = 1_000_000;
        int[] counts = counts(new ZipfianGenerator(0, n - 1), 11, n, draws);
        // Items 0 and 1 come from the exact thresholds of the method, so their shares are exact.
        assertEquals(1 / zeta, (double) counts[0] / draws, 0.002);
        assertEquals(Math.pow(0.5, 0.99) / zeta, (double) counts[1] / draws, 0.002);
        for (int i = 1; i < 10; i++) {
            assertTrue(counts[i - 1] > counts[i], "popularity must fall with rank at " + i);
        }
    }

    @Test
    void zipfianHonoursMinAndRejectsEmptyRanges() {
        ZipfianGenerator g = new ZipfianGenerator(500, 509);
        SplittableRandom r = new SplittableRandom(5);
        int atMin = 0;
        for (int i = 0; i < 10_000; i++) {
            long v = g.next(r);
            assertTrue(v >= 500 && v <= 509, "out of range: " + v);
            atMin += v == 500 ? 1 : 0;
        }
        assertTrue(atMin > 3000, "min must be the most popular item, got " + atMin);
        assertThrows(IllegalArgumentException.class, () -> new ZipfianGenerator(5, 4));
        assertThrows(IllegalArgumentException.class, () -> new ScrambledZipfianGenerator(5, 4));
        assertThrows(IllegalArgumentException.class, () -> ScrambledZipfianGenerator.forCoreWorkload(0));
    }

    @Test
    void zetaCacheAndIncrementalZetaAgreeWithDirectSum() {
        ZetaCache cache = new ZetaCache();
        assertEquals(Zeta.zeta(10_000, 0.99), cache.zeta(10_000, 0.99), 0.0);
        double first = Zeta.zeta(1_000, 0.99);
        assertEquals(Zeta.zeta(3_000, 0.99), Zeta.zeta(1_000, 3_000, 0.99, first), 1e-12);
        assertEquals(zetaReference(3_000, 0.99), Zeta.zeta(3_000, 0.99), 1e-9);
        ZipfianGenerator cached = new ZipfianGenerator(0, 9_999, 0.99, cache);
        assertEquals(cache.zeta(10_000, 0.99), cached.zetan(), 0.0);
    }
}
