package org.ivsbench.config;

import java.util.List;
import java.util.Map;

/**
 * One phase of a run ({@code works/work}). Exactly one of {@code timeSeconds} and {@code count} is positive:
 * a time phase stops scheduling at its deadline; a count phase ends after exactly {@code count} measured
 * operations. {@code warmupSeconds} run before the measured part and are excluded from every figure.
 * {@code weights} are percentages aligned with the config's transaction types. {@code parameters} holds
 * benchmark-specific per-phase settings (ycsbivs: {@code distribution}). {@code index} is the 0-based position in
 * {@code works} (the default name is {@code "phase" + index}, as in summary.json).
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
        Map<String, String> parameters) {

    public PhaseConfig {
        weights = List.copyOf(weights);
        parameters = Map.copyOf(parameters);
    }

    public boolean endsByCount() {
        return count > 0;
    }

    /** Returns a copy with other benchmark parameters (used by experiments that derive phases). */
    public PhaseConfig withParameters(Map<String, String> newParameters) {
        return new PhaseConfig(index, name, timeSeconds, count, warmupSeconds, rate, arrival, weights,
                activeTerminals, serial, thinkTimeMs, newParameters);
    }
}
