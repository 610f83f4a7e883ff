package org.ivsbench.random;

import java.util.SplittableRandom;

/**
 * An insertion sequence of n keys with a requested sortedness k ({@link Sortedness}), by a seeded procedure:
 *
 * <ol>
 *   <li>Start from sorted order (rank r at position r).
 *   <li>Choose round(k * n) ranks uniformly without replacement (a partial Fisher-Yates shuffle); the others
 *       stay where they are, in order.
 *   <li>Give each chosen rank r a target position drawn uniformly from [r - window, r + window], clipped to
 *       [0, n - 1].
 *   <li>Lay out the sequence by position: at each position the unchosen rank of that position (if any)
 *       first, then the chosen ranks that target it, in the order they were chosen.
 * </ol>
 *
 * <p>The unchosen entries stay an increasing subsequence, so the measured k is at most the requested one;
 * it falls short where a chosen entry happens to land in order, which is rare when the window is wide and
 * common when it is a few entries. A chosen entry lands within window of its sorted place, give or take the
 * shift of the entries around it (chosen ones leave and arrive), so the window bounds L roughly. Memory: about 13 bytes per key (n up to
 * Integer.MAX_VALUE).
 */
public final class InsertOrder {
    private InsertOrder() {}

    /**
     * @param n      the number of keys (ranks 0 .. n-1)
     * @param k      the requested fraction of out-of-place entries, in [0, 1]
     * @param window the largest intended displacement, in entries (at least 1)
     * @return the ranks in insertion order
     */
    public static int[] generate(int n, double k, long window, SplittableRandom random) {
        if (n < 0 || !(k >= 0 && k <= 1) || window < 1) {
            throw new IllegalArgumentException("n=" + n + ", k=" + k + ", window=" + window);
        }
        int moved = (int) Math.round(k * n);
        int[] ranks = new int[n];
        for (int i = 0; i < n; i++) {
            ranks[i] = i;
        }
        // After this loop ranks[0 .. moved-1] is a uniform sample, in a uniform order.
        for (int i = 0; i < moved; i++) {
            int j = i + random.nextInt(n - i);
            int t = ranks[i];
            ranks[i] = ranks[j];
            ranks[j] = t;
        }
        boolean[] chosen = new boolean[n];
        int[] target = new int[moved];
        // counts[p + 1] = entries at position p, prefix-summed below into the first slot of each position
        int[] start = new int[n + 1];
        for (int i = 0; i < moved; i++) {
            int r = ranks[i];
            chosen[r] = true;
            long lo = Math.max(0, r - window);
            long hi = Math.min(n - 1L, r + window);
            target[i] = (int) (lo + random.nextLong(hi - lo + 1));
            start[target[i] + 1]++;
        }
        for (int p = 0; p < n; p++) {
            if (!chosen[p]) {
                start[p + 1]++;
            }
        }
        for (int p = 0; p < n; p++) {
            start[p + 1] += start[p];
        }
        int[] sequence = new int[n];
        for (int p = 0; p < n; p++) {
            if (!chosen[p]) {
                sequence[start[p]++] = p;
            }
        }
        for (int i = 0; i < moved; i++) {
            sequence[start[target[i]]++] = ranks[i];
        }
        return sequence;
    }
}
