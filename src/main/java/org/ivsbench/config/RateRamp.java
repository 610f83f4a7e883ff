package org.ivsbench.config;

/**
 * The rate of a phase whose rate ramps, as a non-homogeneous arrival process: {@link #arrivalsUntil} is the
 * expected number of arrivals from the measured start (the integral of the rate), {@link #secondsAt} its inverse.
 * The engine places the k-th arrival at {@code secondsAt(k)} (regular) or at {@code secondsAt} of a unit-rate
 * Poisson process's k-th point (Poisson, by time change), so the count of regular arrivals in any interval is
 * the integral of the rate over it, rounded. Time is in seconds from the measured start; before it (warmup) the
 * rate is the phase's own.
 */
public final class RateRamp {
    private final double from;
    private final double to;
    private final long lengthSeconds;
    private final RampConfig ramp;
    /** Step shape: the rate of each step and the arrivals before it. */
    private final double[] stepRates;

    private final double[] stepStarts;

    public RateRamp(double from, double to, long lengthSeconds, RampConfig ramp) {
        if (!(from > 0) || !(to > 0) || lengthSeconds <= 0) {
            throw new IllegalArgumentException(
                    "rates must be positive and the length too: " + from + ", " + to + ", " + lengthSeconds);
        }
        this.from = from;
        this.to = to;
        this.lengthSeconds = lengthSeconds;
        this.ramp = ramp;
        if (ramp.shape() == RampConfig.Shape.STEP) {
            int n = Math.toIntExact(ramp.steps(lengthSeconds));
            stepRates = new double[n];
            stepStarts = new double[n];
            double arrivals = 0;
            for (int i = 0; i < n; i++) {
                stepRates[i] = RampConfig.between(from, to, (double) i / (n - 1));
                stepStarts[i] = arrivals;
                arrivals += stepRates[i] * ramp.everySeconds();
            }
        } else {
            stepRates = null;
            stepStarts = null;
        }
    }

    /** The configured rate at {@code seconds} after the measured start. */
    public double rateAt(double seconds) {
        return RampConfig.between(from, to, ramp.fraction(seconds, lengthSeconds));
    }

    /** The lower of the two rates. */
    public double lowestRate() {
        return Math.min(from, to);
    }

    /** Expected arrivals between the measured start and {@code seconds} after it (negative before it). */
    public double arrivalsUntil(double seconds) {
        if (seconds <= 0) {
            return from * seconds;
        }
        if (stepRates == null) {
            double t = Math.min(seconds, lengthSeconds);
            double ramped = from * t + (to - from) * t * t / (2.0 * lengthSeconds);
            return ramped + to * (seconds - t);
        }
        int i = (int) Math.min((long) (seconds / ramp.everySeconds()), stepRates.length - 1);
        return stepStarts[i] + stepRates[i] * (seconds - (double) i * ramp.everySeconds());
    }

    /** The time (seconds from the measured start) by which {@code arrivals} are expected; inverse of the above. */
    public double secondsAt(double arrivals) {
        if (arrivals <= 0) {
            return arrivals / from;
        }
        if (stepRates == null) {
            double a = (to - from) / (2.0 * lengthSeconds);
            double rampEnd = arrivalsUntil(lengthSeconds);
            if (arrivals > rampEnd) {
                return lengthSeconds + (arrivals - rampEnd) / to;
            }
            // The root of a t^2 + from t = arrivals in a form without cancellation (and valid for a = 0).
            return 2.0 * arrivals / (from + Math.sqrt(from * from + 4.0 * a * arrivals));
        }
        int lo = 0;
        int hi = stepStarts.length - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (stepStarts[mid] <= arrivals) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return (double) lo * ramp.everySeconds() + (arrivals - stepStarts[lo]) / stepRates[lo];
    }
}
