package org.ivsbench.config;

import java.util.List;
import java.util.Map;

/**
 * One phase of a run ({@code works/work}). Exactly one of {@code timeSeconds} and {@code count} is positive:
 * a time phase stops scheduling at its deadline; a count phase ends after exactly {@code count} measured
 * operations. {@code warmupSeconds} run before the measured part and are excluded from every figure.
 * {@code weights} are percentages aligned with the config's transaction types. {@code parameters} holds
 * benchmark-specific per-phase settings (ycsbivs: {@code distribution}). {@code index} is the 0-based position in
 * {@code works} (the default name is {@code "phase" + index}, as in summary.json). {@code maxLatenessMs}: an
 * open-loop arrival that has waited longer than this for a free terminal is given up as missed instead of
 * started, so an overloaded database shows as missed arrivals rather than a queue without bound.
 * {@code ramp}: the phase's gradual shift, or null. {@code thinkTimeDistribution}: a distribution expression for
 * the think time in milliseconds (instead of the constant {@code thinkTimeMs}), or null; with an open rate it
 * makes the loop semi-open.
 */
public record PhaseConfig(
        int index,
        String name,
        long timeSeconds,
        long count,
        long warmupSeconds,
        RateSpec rate,
        ArrivalKind arrival,
        List<Double> weights,
        int activeTerminals,
        boolean serial,
        long thinkTimeMs,
        long maxLatenessMs,
        Map<String, String> parameters,
        RampConfig ramp,
        String thinkTimeDistribution) {

    /** The lateness bound of a phase that does not set {@code maxlateness}. */
    public static final long DEFAULT_MAX_LATENESS_MS = 1000;

    public PhaseConfig {
        weights = List.copyOf(weights);
        parameters = Map.copyOf(parameters);
    }

    public boolean endsByCount() {
        return count > 0;
    }

    /** The phase's benchmark parameters read as typed leaves, errors named {@code works/work[n]/<leaf>}. */
    public LeafView parameterView() {
        return LeafView.of(parameters, "works/work[" + (index + 1) + "]");
    }

    /** Returns a copy with other benchmark parameters (used by experiments that derive phases). */
    public PhaseConfig withParameters(Map<String, String> newParameters) {
        return toBuilder().parameters(newParameters).build();
    }

    /**
     * A phase of the given position with the defaults of an empty {@code <work>}: no time, no count, no warmup,
     * unlimited rate, regular arrivals, no weights, one active terminal, not serial, no think time.
     */
    public static Builder builder(int index) {
        return new Builder(index);
    }

    public Builder toBuilder() {
        return new Builder(index)
                .name(name)
                .timeSeconds(timeSeconds)
                .count(count)
                .warmupSeconds(warmupSeconds)
                .rate(rate)
                .arrival(arrival)
                .weights(weights)
                .activeTerminals(activeTerminals)
                .serial(serial)
                .thinkTimeMs(thinkTimeMs)
                .maxLatenessMs(maxLatenessMs)
                .parameters(parameters)
                .ramp(ramp)
                .thinkTimeDistribution(thinkTimeDistribution);
    }

    /** Builds a {@link PhaseConfig} by named settings instead of twelve positional ones. */
    public static final class Builder {
        private final int index;
        private String name;
        private long timeSeconds;
        private long count;
        private long warmupSeconds;
        private RateSpec rate = RateSpec.unlimited();
        private ArrivalKind arrival = ArrivalKind.REGULAR;
        private List<Double> weights = List.of();
        private int activeTerminals = 1;
        private boolean serial;
        private long thinkTimeMs;
        private long maxLatenessMs = DEFAULT_MAX_LATENESS_MS;
        private Map<String, String> parameters = Map.of();
        private RampConfig ramp;
        private String thinkTimeDistribution;

        private Builder(int index) {
            this.index = index;
            this.name = "phase" + index;
        }

        public Builder name(String value) {
            name = value;
            return this;
        }

        public Builder timeSeconds(long value) {
            timeSeconds = value;
            return this;
        }

        public Builder count(long value) {
            count = value;
            return this;
        }

        public Builder warmupSeconds(long value) {
            warmupSeconds = value;
            return this;
        }

        public Builder rate(RateSpec value) {
            rate = value;
            return this;
        }

        public Builder arrival(ArrivalKind value) {
            arrival = value;
            return this;
        }

        public Builder weights(List<Double> value) {
            weights = value;
            return this;
        }

        public Builder activeTerminals(int value) {
            activeTerminals = value;
            return this;
        }

        public Builder serial(boolean value) {
            serial = value;
            return this;
        }

        public Builder thinkTimeMs(long value) {
            thinkTimeMs = value;
            return this;
        }

        public Builder maxLatenessMs(long value) {
            maxLatenessMs = value;
            return this;
        }

        public Builder parameters(Map<String, String> value) {
            parameters = value;
            return this;
        }

        public Builder ramp(RampConfig value) {
            ramp = value;
            return this;
        }

        public Builder thinkTimeDistribution(String value) {
            thinkTimeDistribution = value;
            return this;
        }

        public PhaseConfig build() {
            return new PhaseConfig(
                    index,
                    name,
                    timeSeconds,
                    count,
                    warmupSeconds,
                    rate,
                    arrival,
                    weights,
                    activeTerminals,
                    serial,
                    thinkTimeMs,
                    maxLatenessMs,
                    parameters,
                    ramp,
                    thinkTimeDistribution);
        }
    }
}
