package org.ivsbench.engine;

import java.util.SplittableRandom;

import org.ivsbench.config.ArrivalKind;
import org.ivsbench.config.RateRamp;

/**
 * The intended start times of an open-loop phase, on an absolute timeline: regular arrivals are computed
 * from their index (no accumulated rounding drift); Poisson arrivals add exponential gaps drawn from a
 * seeded stream, so the same seed gives the same timeline. A ramped rate is a non-homogeneous process by time
 * change: the k-th point of the unit-rate process (k itself, or the sum of k+1 unit exponential gaps) is placed
 * where the rate's integral since the phase start reaches it ({@link RateRamp#secondsAt}).
 */
final class ArrivalProcess {
    private final long startNanos;
    private final double periodNanos;
    private final ArrivalKind kind;
    private final SplittableRandom random;
    private final RateRamp ramp;
    /** Arrivals the phase's own rate brings during warmup: the ramp's integral counts from the measured start. */
    private final double warmupArrivals;

    private final double warmupSeconds;
    private long index;
    private double poissonOffsetNanos;
    /** Ramped Poisson: the current point of the unit-rate process. */
    private double unitPoint;

    ArrivalProcess(long startNanos, double opsPerSecond, ArrivalKind kind, SplittableRandom random) {
        this(startNanos, opsPerSecond, kind, random, null, 0);
    }

    /**
     * @param ramp          the phase's rate ramp (its start rate is {@code opsPerSecond}), or null
     * @param warmupSeconds time from {@code startNanos} to the measured start, where the ramp begins
     */
    ArrivalProcess(
            long startNanos,
            double opsPerSecond,
            ArrivalKind kind,
            SplittableRandom random,
            RateRamp ramp,
            long warmupSeconds) {
        if (!(opsPerSecond > 0)) {
            throw new IllegalArgumentException("rate must be positive: " + opsPerSecond);
        }
        this.startNanos = startNanos;
        this.periodNanos = 1e9 / opsPerSecond;
        this.kind = kind;
        this.random = random;
        this.ramp = ramp;
        this.warmupSeconds = warmupSeconds;
        this.warmupArrivals = opsPerSecond * warmupSeconds;
        if (kind == ArrivalKind.POISSON) {
            if (ramp == null) {
                poissonOffsetNanos = gap();
            } else {
                unitPoint = unitGap();
            }
        }
    }

    /** Intended start of the current arrival. */
    long current() {
        if (ramp != null) {
            double point = kind == ArrivalKind.REGULAR ? index : unitPoint;
            return startNanos + Math.round((warmupSeconds + ramp.secondsAt(point - warmupArrivals)) * 1e9);
        }
        return kind == ArrivalKind.REGULAR
                ? startNanos + Math.round(index * periodNanos)
                : startNanos + Math.round(poissonOffsetNanos);
    }

    void advance() {
        index++;
        if (ramp != null) {
            if (kind == ArrivalKind.POISSON) {
                unitPoint += unitGap();
            }
        } else if (kind == ArrivalKind.POISSON) {
            poissonOffsetNanos += gap();
        }
    }

    /** The gap between regular arrivals; with a ramp, the longest (at the lower of its two rates). */
    long periodNanos() {
        return ramp == null ? Math.round(periodNanos) : Math.round(1e9 / ramp.lowestRate());
    }

    private double gap() {
        return unitGap() * periodNanos;
    }

    private double unitGap() {
        // 1 - nextDouble() is in (0, 1], so the logarithm is finite.
        return -Math.log(1.0 - random.nextDouble());
    }
}
