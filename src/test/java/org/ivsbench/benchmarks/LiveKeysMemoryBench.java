package org.ivsbench.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.Locale;
import java.util.SplittableRandom;

import org.ivsbench.random.LiveKeys;
import org.ivsbench.random.LongGenerator;
import org.ivsbench.random.UniformLongGenerator;

/**
 * Memory per live key of a section's {@link LiveKeys}, at a given number of live keys, in three histories: the
 * keys loaded; as many inserted into an empty section; twice as many loaded and half of them deleted (the
 * densest gone set, and key numbers twice the live count). Two figures per history: the bytes the structure's
 * arrays hold (exact), and the heap the JVM reports in use after a full collection with the set held, minus the
 * same before it was built (measured; includes object headers).
 *
 * <pre>LiveKeysMemoryBench [liveKeys=1000000]</pre>
 */
public final class LiveKeysMemoryBench {
    private LiveKeysMemoryBench() {}

    public static void main(String[] args) {
        long live = args.length > 0 ? Long.parseLong(args[0]) : 1_000_000;
        System.out.printf(
                Locale.ROOT,
                "%-34s %12s %14s %14s %14s%n",
                "history",
                "live keys",
                "array bytes",
                "B/key arrays",
                "B/key heap");
        report("loaded", live, () -> new LiveKeys(live));
        report("inserted into an empty section", live, () -> {
            LiveKeys k = new LiveKeys(0);
            for (long i = 0; i < live; i++) {
                k.inserted(k.reserveInsert(), true);
            }
            return k;
        });
        report("2x loaded, half deleted", live, () -> {
            LiveKeys k = new LiveKeys(2 * live);
            LongGenerator uniform = new UniformLongGenerator(0, 2 * live - 1);
            SplittableRandom r = new SplittableRandom(42);
            for (long i = 0; i < live; i++) {
                k.deleted(k.takeLive(uniform, 2 * live, r), true);
            }
            return k;
        });
    }

    private interface Build {
        LiveKeys build();
    }

    private static void report(String history, long expectedLive, Build build) {
        long before = usedAfterGc();
        LiveKeys keys = build.build();
        long after = usedAfterGc();
        if (keys.liveCount() != expectedLive) {
            throw new IllegalStateException(history + ": " + keys.liveCount() + " live, expected " + expectedLive);
        }
        System.out.printf(
                Locale.ROOT,
                "%-34s %,12d %,14d %14.3f %14.3f%n",
                history,
                keys.liveCount(),
                keys.footprintBytes(),
                keys.footprintBytes() / (double) keys.liveCount(),
                (after - before) / (double) keys.liveCount());
    }

    private static long usedAfterGc() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) { // the lowest of a few collections: a concurrent collector may lag
            System.gc();
            used = Math.min(used, memory.getHeapMemoryUsage().getUsed());
        }
        return used;
    }
}
