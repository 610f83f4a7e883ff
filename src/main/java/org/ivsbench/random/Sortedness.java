package org.ivsbench.random;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The K-L sortedness of an insertion sequence (BoDS, Tectonic), normalised to [0, 1]:
 *
 * <ul>
 *   <li>{@code k}: the fraction of entries that are out of place, i.e. the fewest entries whose removal
 *       leaves the rest in ascending order: {@code (n - LIS) / n}, LIS the length of the longest increasing
 *       subsequence. 0 for a sorted sequence; close to 1 (1 - about 2/sqrt(n)) for a random one.
 *   <li>{@code l}: the largest displacement of an entry from its place in sorted order, {@code max |i - rank(i)|},
 *       divided by the largest possible, {@code n - 1}.
 * </ul>
 *
 * <p>"Sortedness" as a single figure is {@code k}. Measured here from the sequence alone, independent of how
 * it was generated ({@link InsertOrder}).
 */
public record Sortedness(long n, double k, double l) {

    /** Of a sequence of distinct key ranks 0 .. n-1 in insertion order. */
    public static Sortedness ofRanks(int[] ranks) {
        int n = ranks.length;
        if (n <= 1) {
            return new Sortedness(n, 0, 0);
        }
        long maxDisplacement = 0;
        for (int i = 0; i < n; i++) {
            maxDisplacement = Math.max(maxDisplacement, Math.abs((long) i - ranks[i]));
        }
        return new Sortedness(n, (n - longestIncreasing(ranks)) / (double) n, maxDisplacement / (double) (n - 1));
    }

    /** Of distinct keys in insertion order, ranked by their natural (for strings: bytewise ASCII) order. */
    public static <T extends Comparable<? super T>> Sortedness of(List<T> inserted) {
        int n = inserted.size();
        Integer[] byKey = new Integer[n];
        for (int i = 0; i < n; i++) {
            byKey[i] = i;
        }
        Arrays.sort(byKey, Comparator.comparing(inserted::get));
        int[] ranks = new int[n];
        for (int r = 0; r < n; r++) {
            ranks[byKey[r]] = r;
        }
        return ofRanks(ranks);
    }

    /** Patience sorting: tails[j] is the smallest last element of an increasing run of length j + 1. */
    static int longestIncreasing(int[] values) {
        int[] tails = new int[values.length];
        int length = 0;
        for (int v : values) {
            int at = Arrays.binarySearch(tails, 0, length, v);
            if (at < 0) {
                at = -at - 1;
            }
            tails[at] = v;
            if (at == length) {
                length++;
            }
        }
        return length;
    }
}
