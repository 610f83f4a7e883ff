package org.ivsbench.random;

import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Key choosers by their configuration name, with the meaning YCSB's CoreWorkload gives each name, over
 * the loaded keys 0 .. recordCount - 1. Each call builds a fresh generator: call once per terminal and
 * phase, since some generators keep per-terminal state.
 */
public final class Distributions {
    private static final List<String> NAMES =
            List.of("uniform", "zipfian", "zipfian-unscrambled", "latest", "hotspot", "sequential", "exponential");

    private Distributions() {}

    /** The valid names, in documentation order. */
    public static List<String> names() {
        return NAMES;
    }

    /** As {@link #forName(String, long, CounterGenerator, ZetaCache)} without sharing zeta values. */
    public static LongGenerator forName(String name, long recordCount, CounterGenerator insertCounter) {
        return forName(name, recordCount, insertCounter, new ZetaCache());
    }

    /**
     * @param name          one of {@link #names()}, case-insensitive
     * @param recordCount   number of loaded records (keys 0 .. recordCount - 1), > 0
     * @param insertCounter the run's shared insert counter, or null when the workload does not insert;
     *                      "latest" and "exponential" count back from its last value, "zipfian" never
     *                      returns a key above it
     * @param zetaCache     shares O(recordCount) normalisation work between terminals
     * @throws IllegalArgumentException for an unknown name (the message lists the valid ones) or a
     *                                  non-positive recordCount
     */
    public static LongGenerator forName(
            String name, long recordCount, CounterGenerator insertCounter, ZetaCache zetaCache) {
        return forName(name, recordCount, 0, insertCounter, zetaCache);
    }

    /**
     * As {@link #forName(String, long, CounterGenerator, ZetaCache)}, with "zipfian" sized for
     * {@code expectedNewKeys} keys beyond the loaded ones, as YCSB's CoreWorkload sizes it
     * ({@link ScrambledZipfianGenerator#expectedNewKeys}); only used when {@code insertCounter} is given.
     */
    public static LongGenerator forName(
            String name, long recordCount, long expectedNewKeys, CounterGenerator insertCounter, ZetaCache zetaCache) {
        if (recordCount <= 0) {
            throw new IllegalArgumentException("recordCount must be > 0, got " + recordCount);
        }
        String key = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
        long last = recordCount - 1;
        return switch (key) {
            case "uniform" -> new UniformLongGenerator(0, last);
            case "zipfian" ->
                insertCounter == null
                        ? ScrambledZipfianGenerator.forCoreWorkload(recordCount)
                        : ScrambledZipfianGenerator.forCoreWorkload(recordCount, expectedNewKeys, insertCounter);
            case "zipfian-unscrambled" -> new ZipfianGenerator(0, last, ZipfianGenerator.ZIPFIAN_CONSTANT, zetaCache);
            case "latest" -> new SkewedLatestGenerator(counterOrFixed(insertCounter, recordCount), zetaCache);
            case "hotspot" -> new HotspotGenerator(0, last);
            case "sequential" -> new SequentialGenerator(0, last);
            case "exponential" ->
                new BackFromLatest(
                        ExponentialGenerator.forRecordCount(recordCount), counterOrFixed(insertCounter, recordCount));
            default ->
                throw new IllegalArgumentException(
                        "unknown distribution '" + name + "'; valid names: " + String.join(", ", NAMES));
        };
    }

    private static CounterGenerator counterOrFixed(CounterGenerator insertCounter, long recordCount) {
        // Nobody advances this private counter, so its last value stays at the last loaded key.
        return insertCounter != null ? insertCounter : new CounterGenerator(recordCount);
    }

    /**
     * CoreWorkload's use of the exponential distribution: an offset back from the newest key, redrawn
     * when it would reach before key 0, so the newest records are the hottest.
     */
    private static final class BackFromLatest implements LongGenerator {
        private final ExponentialGenerator offsets;
        private final CounterGenerator counter;

        BackFromLatest(ExponentialGenerator offsets, CounterGenerator counter) {
            this.offsets = offsets;
            this.counter = counter;
        }

        @Override
        public long next(SplittableRandom r) {
            long latest = counter.lastValue();
            return latest - offsets.nextBelow(r, latest + 1);
        }
    }
}
