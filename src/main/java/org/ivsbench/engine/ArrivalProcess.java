package org.ivsbench.engine;

import java.util.SplittableRandom;

import org.ivsbench.config.ArrivalKind;
import org.ivsbench.config.RateRamp;

/**
 * The intended start times of an open-loop phase, on an absolute timeline: regular arrivals are computed
 * from their index (no accumulated rounding drift); Poisson arrivals add exponential gaps drawn from a
 * seeded stream, so the same seed gives the same timeline. A ramped rate is a non-homogeneous process by time
 * change: the k-th point of the unit-rate process (k itself, or the sum of k+1 unit exponential gaps) is placed
 * where the rate's integral since the phase start reaches it ({@link RateRamp#secondsAt}). A shard's process
 * takes every {@code stride}-th arrival of that timeline from arrival {@code first} on.
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
    private final long stride;
    private long index;
    private double poissonOffsetNanos;
    /** Ramped Poisson: the current point of the unit-rate process. */
    private double unitPoint;

    ArrivalProcess(long startNanos, double opsPerSecond, ArrivalKind kind, SplittableRandom random) {
        this(startNanos, opsPerSecond, kind, random, null, 0, 0, 1);
    }

    /** The whole timeline of a ramped phase (one driver). */
    ArrivalProcess(
            long startNanos,
            double opsPerSecond,
            ArrivalKind kind,
            SplittableRandom random,
            RateRamp ramp,
            long warmupSeconds) {
        this(startNanos, opsPerSecond, kind, random, ramp, warmupSeconds, 0, 1);
    }

    /** One shard's part of an unramped phase's timeline. */
    ArrivalProcess(
            long startNanos, double opsPerSecond, ArrivalKind kind, SplittableRandom random, long first, long stride) {
        this(startNanos, opsPerSecond, kind, random, null, 0, first, stride);
    }

    /**
     * Every {@code stride}-th arrival of the timeline, from arrival {@code first} on: one shard's part of the
     * phase's timeline. The Poisson gaps of the skipped arrivals are still drawn, so the shards of one seed
     * together give exactly the arrivals one driver would.
     *
     * @param ramp          the phase's rate ramp (its start rate is {@code opsPerSecond}), or null
     * @param warmupSeconds time from {@code startNanos} to the measured start, where the ramp begins
     */
    ArrivalProcess(
            long startNanos,
            double opsPerSecond,
            ArrivalKind kind,
            SplittableRandom random,
            RateRamp ramp,
            long warmupSeconds,
            long first,
            long stride) {
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
        this.ramp = ramp;
        this.warmupSeconds = warmupSeconds;
        this.warmupArrivals = opsPerSecond * warmupSeconds;
        this.stride = stride;
        this.index = first;
        if (kind == ArrivalKind.POISSON) {
            for (long k = 0; k <= first; k++) {
                drawGap();
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
        index += stride;
        if (kind == ArrivalKind.POISSON) {
            for (long k = 0; k < stride; k++) {
                drawGap();
            }
        }
    }

    /**
     * The mean gap between this process's own arrivals; with a ramp, the longest (at the lower of its two
     * rates).
     */
    long periodNanos() {
        double period = ramp == null ? periodNanos : 1e9 / ramp.lowestRate();
        return Math.round(period * stride);
    }

    /** One Poisson gap: of the unit-rate process when ramped, else of the phase's rate. */
    private void drawGap() {
        if (ramp != null) {
            unitPoint += unitGap();
        } else {
            poissonOffsetNanos += unitGap() * periodNanos;
        }
    }

    private double unitGap() {
        // 1 - nextDouble() is in (0, 1], so the logarithm is finite.
        return -Math.log(1.0 - random.nextDouble());
    }
}
