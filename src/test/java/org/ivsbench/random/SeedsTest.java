package org.ivsbench.random;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SeedsTest {
    private static long[] first(SplittableRandom r, int n) {
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            out[i] = r.nextLong();
        }
        return out;
    }

    @Test
    void sameSeedPurposeAndIndexGiveTheSameStream() {
        assertArrayEquals(
                first(Seeds.forStream(42, "terminal", 3), 1000), first(Seeds.forStream(42, "terminal", 3), 1000));
        assertArrayEquals(first(Seeds.master(42), 1000), first(Seeds.master(42), 1000));
    }

    @Test
    void streamDoesNotDependOnWhichOtherStreamsWereDerived() {
        long[] alone = first(Seeds.forStream(42, "terminal", 3), 100);
        for (int i = 0; i < 10; i++) {
            first(Seeds.forStream(42, "terminal", i), 5);
        }
        assertArrayEquals(alone, first(Seeds.forStream(42, "terminal", 3), 100));
    }

    @Test
    void differentIndexPurposeOrSeedGiveDifferentStreams() {
        long[] base = first(Seeds.forStream(42, "terminal", 0), 1000);
        assertFalse(Arrays.equals(base, first(Seeds.forStream(42, "terminal", 1), 1000)));
        assertFalse(Arrays.equals(base, first(Seeds.forStream(42, "loader", 0), 1000)));
        assertFalse(Arrays.equals(base, first(Seeds.forStream(43, "terminal", 0), 1000)));
        assertFalse(Arrays.equals(base, first(Seeds.master(42), 1000)));
    }

    @Test
    void subIndexedStreamsAreReproducibleAndDistinctFromEachOtherAndTheirParent() {
        // The engine's per (terminal, phase) streams.
        assertArrayEquals(
                first(Seeds.forStream(42, "terminal", 3, 1), 1000), first(Seeds.forStream(42, "terminal", 3, 1), 1000));
        long[] base = first(Seeds.forStream(42, "terminal", 3, 1), 1000);
        assertFalse(Arrays.equals(base, first(Seeds.forStream(42, "terminal", 3, 0), 1000)));
        assertFalse(Arrays.equals(base, first(Seeds.forStream(42, "terminal", 1, 3), 1000)), "not symmetric");
        assertFalse(Arrays.equals(base, first(Seeds.forStream(42, "terminal", 3), 1000)));
        assertFalse(Arrays.equals(base, first(Seeds.forStream(43, "terminal", 3, 1), 1000)));
    }

    @Test
    void neighbouringSubIndexedStreamsDoNotOverlapOrCorrelate() {
        int n = 20_000;
        Set<Long> seen = new HashSet<>();
        double[][] doubles = new double[8][n];
        for (int s = 0; s < 8; s++) {
            // Terminals 0 and 1 over phases 0..3: neighbours in either index.
            SplittableRandom r = Seeds.forStream(1, "terminal", s / 4, s % 4);
            for (int i = 0; i < n; i++) {
                long v = r.nextLong();
                assertTrue(seen.add(v), "stream " + s + " repeats a value of an earlier stream");
                doubles[s][i] = (v >>> 11) * 0x1.0p-53;
            }
        }
        for (int s = 1; s < 8; s++) {
            double c = correlation(doubles[s - 1], doubles[s]);
            assertTrue(Math.abs(c) < 0.035, "streams " + (s - 1) + " and " + s + " correlate: " + c);
        }
        double across = correlation(doubles[0], doubles[4]);
        assertTrue(Math.abs(across) < 0.035, "terminal 0 and 1 in phase 0 correlate: " + across);
    }

    @Test
    void neighbouringStreamsDoNotOverlapOrCorrelate() {
        int streams = 16;
        int n = 20_000;
        Set<Long> seen = new HashSet<>();
        double[][] doubles = new double[streams][n];
        for (int s = 0; s < streams; s++) {
            SplittableRandom r = Seeds.forStream(1, "terminal", s);
            for (int i = 0; i < n; i++) {
                long v = r.nextLong();
                assertTrue(seen.add(v), "stream " + s + " repeats a value of an earlier stream");
                doubles[s][i] = (v >>> 11) * 0x1.0p-53;
            }
        }
        for (int s = 1; s < streams; s++) {
            double c = correlation(doubles[s - 1], doubles[s]);
            // For independent streams the sample correlation has sd 1/sqrt(n) ~ 0.007.
            assertTrue(Math.abs(c) < 0.035, "streams " + (s - 1) + " and " + s + " correlate: " + c);
        }
        assertEquals(streams * n, seen.size());
    }

    private static double correlation(double[] a, double[] b) {
        double ma = Arrays.stream(a).average().orElseThrow();
        double mb = Arrays.stream(b).average().orElseThrow();
        double cov = 0;
        double va = 0;
        double vb = 0;
        for (int i = 0; i < a.length; i++) {
            cov += (a[i] - ma) * (b[i] - mb);
            va += (a[i] - ma) * (a[i] - ma);
            vb += (b[i] - mb) * (b[i] - mb);
        }
        return cov / Math.sqrt(va * vb);
    }
}
