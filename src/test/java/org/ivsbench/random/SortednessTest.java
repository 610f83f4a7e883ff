package org.ivsbench.random;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SortednessTest {
    private static final int N = 10_000;

    @Test
    void measuresHandWorkedSequences() {
        assertEquals(new Sortedness(5, 0, 0), Sortedness.ofRanks(new int[] {0, 1, 2, 3, 4}));
        // 4 3 2 1 0: LIS 1, so 4 of 5 out of place; rank 4 sits at position 0, displaced by n - 1.
        assertEquals(new Sortedness(5, 0.8, 1.0), Sortedness.ofRanks(new int[] {4, 3, 2, 1, 0}));
        // One entry moved two places back: K = 1/5, L = 2/4.
        assertEquals(new Sortedness(5, 0.2, 0.5), Sortedness.ofRanks(new int[] {0, 3, 1, 2, 4}));
        assertEquals(new Sortedness(1, 0, 0), Sortedness.ofRanks(new int[] {0}));
    }

    @Test
    void ranksStringsBytewise() {
        // "user10" sorts before "user9": the unpadded ordered keys are not in key order.
        assertEquals(1.0 / 3, Sortedness.of(List.of("user8", "user9", "user10")).k(), 1e-12);
        assertEquals(0, Sortedness.of(List.of("a", "b", "c")).k());
    }

    @Test
    void isAPermutationAndSeeded() {
        int[] a = InsertOrder.generate(N, 0.3, N, new SplittableRandom(7));
        int[] b = InsertOrder.generate(N, 0.3, N, new SplittableRandom(7));
        assertArrayEquals(a, b);
        boolean[] seen = new boolean[N];
        for (int r : a) {
            assertTrue(!seen[r], "rank " + r + " twice");
            seen[r] = true;
        }
        assertArrayEquals(new int[] {0, 1, 2, 3}, InsertOrder.generate(4, 0, 4, new SplittableRandom(1)));
    }

    /** The bar: the measured K within 0.05 of the requested value, over the whole key space and a window. */
    @ParameterizedTest(name = "k={0}, window={1}")
    @CsvSource({
        "0, 10000",
        "0.05, 10000",
        "0.1, 10000",
        "0.25, 10000",
        "0.5, 10000",
        "0.75, 10000",
        "0.9, 10000",
        "1, 10000",
        "0.1, 1000",
        "0.5, 1000",
        "0.25, 100",
    })
    void measuredSortednessIsTheRequestedOne(double k, long window) {
        for (long seed = 1; seed <= 3; seed++) {
            Sortedness s = Sortedness.ofRanks(InsertOrder.generate(N, k, window, new SplittableRandom(seed)));
            assertEquals(k, s.k(), 0.05, "seed " + seed + ": " + s);
            assertTrue(s.k() <= k + 1e-12, "the unchosen entries stay in order: " + s);
            if (k > 0) {
                // Entries shift by the imbalance of arrivals and departures too, so the window bounds L loosely.
                assertTrue(s.l() * (N - 1) <= 1.25 * window, "displacement roughly bounded by the window: " + s);
            }
        }
    }

    @Test
    void measuresIndependentlyOfTheGenerator() {
        // Brute force LIS (O(n^2)) against patience sorting on random short sequences.
        SplittableRandom random = new SplittableRandom(3);
        for (int trial = 0; trial < 200; trial++) {
            int n = 1 + random.nextInt(40);
            List<Integer> values = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                values.add(i);
            }
            Collections.shuffle(values, new Random(random.nextLong()));
            int[] ranks = values.stream().mapToInt(Integer::intValue).toArray();
            int[] best = new int[n];
            int lis = 0;
            for (int i = 0; i < n; i++) {
                best[i] = 1;
                for (int j = 0; j < i; j++) {
                    if (ranks[j] < ranks[i]) {
                        best[i] = Math.max(best[i], best[j] + 1);
                    }
                }
                lis = Math.max(lis, best[i]);
            }
            assertEquals(lis, Sortedness.longestIncreasing(ranks));
        }
    }
}
