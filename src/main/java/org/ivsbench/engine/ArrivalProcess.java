package org.ivsbench.engine;

import java.util.SplittableRandom;

import org.ivsbench.config.ArrivalKind;

/**
 * The intended start times of an open-loop phase, on an absolute timeline: regular arrivals are computed
 * from their index (no accumulated rounding drift); Poisson arrivals add exponential gaps drawn from a
 * seeded stream, so the same seed gives the same timeline.
 */
final class ArrivalProcess {
    private final long startNanos;
    private final double periodNanos;
    private final ArrivalKind kind;
    private final SplittableRandom random;
    private final long stride;
    private long index;
    private double poissonOffsetNanos;

    ArrivalProcess(long startNanos, double opsPerSecond, ArrivalKind kind, SplittableRandom random) {
        this(startNanos, opsPerSecond, kind, random, 0, 1);
    }

    /**
     * Every {@code stride}-th arrival of the timeline at {@code opsPerSecond}, from arrival {@code first} on: one
     * shard's part of the phase's timeline. The Poisson gaps of the skipped arrivals are still drawn, so the
     * shards of one seed together give exactly the arrivals one driver would.
     */
    ArrivalProcess(
            long startNanos, double opsPerSecond, ArrivalKind kind, SplittableRandom random, long first, long stride) {
        if (stride < 1 || first < 0 || first >= stride) {
            throw new IllegalArgumentException("arrival " + first + " of every " + stride);
        }
        if (!(opsPerSecond > 0)) {
            throw new IllegalArgumentException("rate must be positive: " + opsPerSecond);
        }
        this.startNanos = startNanos;
        this.periodNanos = 1e9 / opsPerSecond;
        this.kind = kind;
        this.random = random;
        this.stride = stride;
        this.index = first;
        if (kind == ArrivalKind.POISSON) {
            for (long k = 0; k <= first; k++) {
                poissonOffsetNanos += gap();
            }
        }
    }

    /** Intended start of the current arrival. */
    long current() {
        return kind == ArrivalKind.REGULAR
                ? startNanos + Math.round(index * periodNanos)
                : startNanos + Math.round(poissonOffsetNanos);
    }

    void advance() {
        index += stride;
        if (kind == ArrivalKind.POISSON) {
            for (long k = 0; k < stride; k++) {
                poissonOffsetNanos += gap();
            }
        }
    }

    /** The mean gap between this process's own arrivals. */
    long periodNanos() {
        return Math.round(periodNanos * stride);
    }

    private double gap() {
        // 1 - nextDouble() is in (0, 1], so the logarithm is finite.
        return -Math.log(1.0 - random.nextDouble()) * periodNanos;
    }
}
