package org.ivsbench.random;

/**
 * The generalised harmonic number zeta(n, theta) = sum_{i=1..n} i^-theta that normalises a Zipfian.
 * Summed in increasing i, like YCSB, so the doubles (and therefore the draws) agree with YCSB's.
 * Cost is O(n) calls to Math.pow: about 0.1-0.3 s for n = 10^7; share results with {@link ZetaCache}.
 */
public final class Zeta {
    private Zeta() {}

    public static double zeta(long n, double theta) {
        return zeta(0, n, theta, 0.0);
    }

    /** Extends {@code sumOfFirst} = zeta(from, theta) to zeta(to, theta) in O(to - from). */
    public static double zeta(long from, long to, double theta, double sumOfFirst) {
        double sum = sumOfFirst;
        for (long i = from; i < to; i++) {
            sum += 1 / Math.pow(i + 1, theta);
        }
        return sum;
    }
}
