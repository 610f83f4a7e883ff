package org.ivsbench.random;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DistributionsTest {
    private static final int N = 1000;

    private static int[] histogram(LongGenerator g, long seed, int buckets, int draws) {
        SplittableRandom r = new SplittableRandom(seed);
        int[] counts = new int[buckets];
        for (int i = 0; i < draws; i++) {
            long v = g.next(r);
            assertTrue(v >= 0 && v < buckets, "out of range: " + v);
            counts[(int) v]++;
        }
        return counts;
    }

    private static long sum(int[] counts, int from, int to) {
        long s = 0;
        for (int i = from; i < to; i++) {
            s += counts[i];
        }
        return s;
    }

    private static int argMax(int[] counts) {
        int best = 0;
        for (int i = 1; i < counts.length; i++) {
            best = counts[i] > counts[best] ? i : best;
        }
        return best;
    }

    @Test
    void uniformPassesChiSquareAndReachesBothEnds() {
        int draws = 1_000_000;
        int[] counts = histogram(new UniformLongGenerator(0, N - 1), 21, N, draws);
        double expected = (double) draws / N;
        double chi2 = 0;
        for (int c : counts) {
            chi2 += (c - expected) * (c - expected) / expected;
        }
        // 999 degrees of freedom: mean 999, sd ~45; 1200 is beyond the 99.9th percentile.
        assertTrue(chi2 < 1200, "chi-square " + chi2);
        assertTrue(counts[0] > 0 && counts[N - 1] > 0);

        SplittableRandom r = new SplittableRandom(1);
        UniformLongGenerator top = new UniformLongGenerator(Long.MAX_VALUE - 1, Long.MAX_VALUE);
        for (int i = 0; i < 100; i++) {
            assertTrue(top.next(r) >= Long.MAX_VALUE - 1);
        }
        assertThrows(IllegalArgumentException.class, () -> new UniformLongGenerator(2, 1));
    }

    @Test
    void hotspotSendsEightyPercentToTheFirstTwentyPercent() {
        int draws = 500_000;
        int[] counts = histogram(new HotspotGenerator(0, N - 1), 22, N, draws);
        long hot = 0;
        for (int i = 0; i < N / 5; i++) {
            hot += counts[i];
        }
        assertEquals(0.8, (double) hot / draws, 0.005);
        // Within each set the draws are uniform: a hot key gets 16x the share of a cold key.
        double hotKey = hot / (N / 5.0);
        double coldKey = (draws - hot) / (N * 4 / 5.0);
        assertEquals(16.0, hotKey / coldKey, 0.5);

        SplittableRandom r = new SplittableRandom(3);
        HotspotGenerator tiny = new HotspotGenerator(10, 12);
        for (int i = 0; i < 1000; i++) {
            long v = tiny.next(r);
            assertTrue(v >= 10 && v <= 12, "out of range: " + v);
        }
    }

    @Test
    void latestConcentratesOnTheNewestKeyAndFollowsInserts() {
        CounterGenerator counter = new CounterGenerator(100);
        SkewedLatestGenerator g = new SkewedLatestGenerator(counter);
        int draws = 200_000;
        int[] before = histogram(g, 23, 20_000, draws);
        assertEquals(99, argMax(before));
        assertEquals(0, before[0], "YCSB's latest never draws key 0");
        long nearLatest = 0;
        for (int k = 90; k < 100; k++) {
            nearLatest += before[k];
        }
        assertTrue(nearLatest > draws / 2, "newest 10 % of keys got only " + nearLatest);
        assertEquals(1 / Zeta.zeta(99, 0.99), (double) before[99] / draws, 0.005);

        for (int i = 0; i < 9_900; i++) {
            counter.acknowledge(counter.next());
        }
        assertEquals(9_999, counter.lastValue());
        int[] after = histogram(g, 24, 20_000, draws);
        assertEquals(9_999, argMax(after));
        for (int k = 10_000; k < 20_000; k++) {
            assertEquals(0, after[k], "key beyond the last insert drawn: " + k);
        }
        // The share of the newest key tracks the incrementally grown zeta, not the one at construction.
        assertEquals(1 / Zeta.zeta(9_999, 0.99), (double) after[9_999] / draws, 0.005);
    }

    @Test
    void sequentialCyclesThroughTheRange() {
        SequentialGenerator g = new SequentialGenerator(5, 7);
        SplittableRandom r = new SplittableRandom(0);
        List<Long> seen = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            seen.add(g.next(r));
        }
        assertEquals(List.of(5L, 6L, 7L, 5L, 6L, 7L, 5L), seen);
        SequentialGenerator offset = new SequentialGenerator(5, 7, 2);
        assertEquals(7L, offset.next(r));
        assertEquals(5L, offset.next(r));
    }

    @Test
    void exponentialStaysInRangeAndIsSkewedTowardZero() {
        int draws = 500_000;
        int[] counts = histogram(ExponentialGenerator.forRecordCount(N), 25, N, draws);
        long below857 = 0;
        for (int i = 0; i < 857; i++) {
            below857 += counts[i];
        }
        // 95 % of raw draws fall below 857.14; values >= 1000 (3.03 % of raw draws) are redrawn.
        assertEquals(0.95 / (1 - Math.pow(0.05, 1000 / 857.142857)), (double) below857 / draws, 0.004);
        long firstTenth = 0;
        long lastTenth = 0;
        for (int i = 0; i < N / 10; i++) {
            firstTenth += counts[i];
            lastTenth += counts[N - 1 - i];
        }
        assertTrue(firstTenth > 5 * lastTenth, firstTenth + " vs " + lastTenth);
    }

    @Test
    void factoryBuildsEveryNamedDistributionOverTheLoadedKeys() {
        assertEquals(
                List.of("uniform", "zipfian", "zipfian-unscrambled", "latest", "hotspot", "sequential", "exponential"),
                Distributions.names());
        ZetaCache cache = new ZetaCache();
        for (String name : Distributions.names()) {
            int[] counts = histogram(Distributions.forName(name, N, null, cache), 26, N, 50_000);
            int hottest = argMax(counts);
            switch (name) {
                case "zipfian" -> assertEquals(Fnv.fnv64(0) % (N + 1), hottest, name);
                case "zipfian-unscrambled" -> assertEquals(0, hottest, name);
                case "latest" -> assertEquals(N - 1, hottest, name);
                case "exponential" ->
                    assertTrue(
                            sum(counts, N - N / 10, N) > 5 * sum(counts, 0, N / 10),
                            name + " must favour the newest keys");
                case "hotspot" -> assertTrue(hottest < N / 5, name + " hottest " + hottest);
                default -> {}
            }
        }
        assertEquals(
                Distributions.forName(" Zipfian ", N, null).next(new SplittableRandom(9)),
                Distributions.forName("zipfian", N, null).next(new SplittableRandom(9)));
    }

    @Test
    void factoryFollowsTheSharedInsertCounter() {
        CounterGenerator counter = new CounterGenerator(N);
        LongGenerator exponential = Distributions.forName("exponential", N, counter);
        LongGenerator zipfian = Distributions.forName("zipfian", N, counter);
        for (int i = 0; i < 500; i++) {
            counter.acknowledge(counter.next());
        }
        int last = (int) counter.lastValue();
        int[] counts = histogram(exponential, 27, 2 * N, 100_000);
        assertEquals(0, sum(counts, last + 1, 2 * N), "exponential drew a key beyond the last insert");
        assertTrue(
                sum(counts, last - 99, last + 1) > 5 * sum(counts, last - 1099, last - 999),
                "exponential must favour the keys just inserted");
        SplittableRandom r = new SplittableRandom(28);
        for (int i = 0; i < 100_000; i++) {
            long k = zipfian.next(r);
            assertTrue(k >= 0 && k <= counter.lastValue(), "zipfian key " + k);
        }
    }

    @Test
    void unknownNameListsTheValidOnes() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> Distributions.forName("zipf", N, null));
        assertTrue(e.getMessage().contains("'zipf'"), e.getMessage());
        for (String name : Distributions.names()) {
            assertTrue(e.getMessage().contains(name), e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> Distributions.forName(null, N, null));
        assertThrows(IllegalArgumentException.class, () -> Distributions.forName("uniform", 0, null));
    }

    @Test
    void counterHandsOutConsecutiveNumbersAcrossThreads() throws InterruptedException {
        CounterGenerator counter = new CounterGenerator(10);
        assertEquals(9, counter.lastValue());
        Thread[] threads = new Thread[4];
        long[] got = new long[threads.length * 10_000];
        for (int t = 0; t < threads.length; t++) {
            int base = t * 10_000;
            threads[t] = new Thread(() -> {
                for (int i = 0; i < 10_000; i++) {
                    got[base + i] = counter.next();
                    counter.acknowledge(got[base + i]);
                }
            });
            threads[t].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        assertEquals(10 + got.length - 1, counter.lastValue());
        long[] sorted = got.clone();
        Arrays.sort(sorted);
        for (int i = 0; i < sorted.length; i++) {
            assertEquals(10 + i, sorted[i]);
        }
    }

    /** As YCSB's acknowledged counter: the choosers that follow inserts see a key only once its insert is done. */
    @Test
    void lastValueFollowsFinishedInsertsOnlyInOrder() {
        CounterGenerator counter = new CounterGenerator(10);
        long a = counter.next();
        long b = counter.next();
        long c = counter.next();
        assertEquals(9, counter.lastValue(), "handed out is not inserted");
        counter.acknowledge(c);
        assertEquals(9, counter.lastValue(), "11 is still in flight: 12 cannot count yet");
        counter.acknowledge(a);
        assertEquals(10, counter.lastValue());
        counter.acknowledge(b);
        assertEquals(12, counter.lastValue(), "11 done: 12 counts too");
        counter.acknowledge(b);
        assertEquals(12, counter.lastValue(), "a second acknowledgement changes nothing");
        // The window wraps around: many more inserts than its size, in order.
        for (int i = 0; i < 3 * CounterGenerator.WINDOW; i++) {
            counter.acknowledge(counter.next());
        }
        assertEquals(12 + 3L * CounterGenerator.WINDOW, counter.lastValue());
        long stuck = counter.next();
        for (int i = 0; i < CounterGenerator.WINDOW - 1; i++) {
            counter.acknowledge(counter.next());
        }
        assertEquals(stuck - 1, counter.lastValue());
        assertThrows(
                IllegalStateException.class,
                () -> counter.acknowledge(counter.next()),
                "more in flight than the window can track is an error, not a wrong lastValue");
        counter.acknowledge(stuck);
        assertEquals(stuck + CounterGenerator.WINDOW - 1, counter.lastValue());
    }
}
