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
    private long index;
    private double poissonOffsetNanos;

    ArrivalProcess(long startNanos, double opsPerSecond, ArrivalKind kind, SplittableRandom random) {
        if (!(opsPerSecond > 0)) {
            throw new IllegalArgumentException("rate must be positive: " + opsPerSecond);
        }
        this.startNanos = startNanos;
        this.periodNanos = 1e9 / opsPerSecond;
        this.kind = kind;
        this.random = random;
        if (kind == ArrivalKind.POISSON) {
            poissonOffsetNanos = gap();
        }
    }

    /** Intended start of the current arrival. */
    long current() {
        return kind == ArrivalKind.REGULAR
                ? startNanos + Math.round(index * periodNanos)
                : startNanos + Math.round(poissonOffsetNanos);
    }

    void advance() {
        index++;
        if (kind == ArrivalKind.POISSON) {
            poissonOffsetNanos += gap();
        }
    }

    long periodNanos() {
        return Math.round(periodNanos);
    }

    private double gap() {
        // 1 - nextDouble() is in (0, 1], so the logarithm is finite.
        return -Math.log(1.0 - random.nextDouble()) * periodNanos;
    }
}
