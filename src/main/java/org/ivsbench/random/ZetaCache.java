package org.ivsbench.random;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Computes each zeta(n, theta) once per run instead of once per terminal: a Zipfian over 10^7 items
 * costs a few hundred milliseconds to normalise, times 64 terminals times every phase. One instance is
 * owned by whoever builds the terminals of a run (not static, so runs and tests never share state).
 * Thread-safe; concurrent requests for the same key compute it once.
 */
public final class ZetaCache {
    private record Key(long n, double theta) {}

    private final Map<Key, Double> values = new ConcurrentHashMap<>();

    public double zeta(long n, double theta) {
        return values.computeIfAbsent(new Key(n, theta), k -> Zeta.zeta(k.n(), k.theta()));
    }
}
