package org.ivsbench.random;

import java.util.SplittableRandom;

/**
 * The order in which a load inserts key numbers 0 .. n-1 to reach a requested sortedness in key order.
 * Key order is the order of the keys' strings: with ordered keys that is (prefix index, number), so the
 * sorted order is a counting sort of the numbers by prefix. {@link InsertOrder} permutes the sorted ranks
 * (with the caller's random stream) and the sequence's sortedness is measured from those ranks.
 */
public final class LoadOrder {
    /** Generating the order holds about 17 bytes per key: 10 million keys stay under 200 MB. */
    public static final int LARGEST = 10_000_000;

    /** The key numbers in insertion order, and the measured sortedness of their keys. */
    public record Result(int[] keynums, Sortedness measured) {}

    private LoadOrder() {}

    public static Result generate(KeyShape shape, int n, double k, long window, SplittableRandom random) {
        return generate(shape, 0, n, k, window, random);
    }

    /**
     * As {@link #generate(KeyShape, int, double, long, SplittableRandom)} for key numbers {@code first} ..
     * {@code first + n - 1} (a section's inserts after its loaded keys); the result holds offsets from first.
     */
    public static Result generate(KeyShape shape, long first, int n, double k, long window, SplittableRandom random) {
        if (!shape.ordered()) {
            throw new IllegalArgumentException("a sortedness needs ordered keys");
        }
        if (n > LARGEST) {
            throw new IllegalArgumentException("a sortedness needs at most " + LARGEST + " keys, got " + n);
        }
        int[] sorted = sortedKeynums(shape, first, n);
        int[] sequence = InsertOrder.generate(n, k, window, random);
        Sortedness measured = Sortedness.ofRanks(sequence);
        for (int i = 0; i < n; i++) {
            sequence[i] = sorted[sequence[i]];
        }
        return new Result(sequence, measured);
    }

    /** Key numbers in key order: by prefix index (each a counting-sort bucket), then by number. */
    static int[] sortedKeynums(KeyShape shape, int n) {
        return sortedKeynums(shape, 0, n);
    }

    /** Offsets 0 .. n-1 of key numbers first + offset, in key order. */
    static int[] sortedKeynums(KeyShape shape, long first, int n) {
        int[] sorted = new int[n];
        if (shape.prefixCount() == 1) {
            for (int i = 0; i < n; i++) {
                sorted[i] = i;
            }
            return sorted;
        }
        int[] start = new int[Math.toIntExact(shape.prefixCount() + 1)];
        for (int i = 0; i < n; i++) {
            start[(int) shape.prefixIndex(first + i) + 1]++;
        }
        for (int p = 0; p + 1 < start.length; p++) {
            start[p + 1] += start[p];
        }
        for (int i = 0; i < n; i++) {
            sorted[start[(int) shape.prefixIndex(first + i)]++] = i;
        }
        return sorted;
    }
}
