package org.ivsbench.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** {@code works/work/ramp}: a phase's gradual shift of rate, mix and benchmark parameters (see {@link RampConfig}). */
final class RampSection {
    private static final List<String> ELEMENTS = List.of("shape", "every", "rate", "weights");

    private RampSection() {}

    /** The phase's ramp, or null when it has none. */
    static RampConfig parse(
            Element work,
            long count,
            long timeSeconds,
            RateSpec rate,
            boolean serial,
            List<TransactionTypeConfig> types,
            Set<String> phaseParameterNames)
            throws ConfigException {
        Element ramp = work.single("ramp");
        if (ramp == null) {
            return null;
        }
        List<String> known = new ArrayList<>(ELEMENTS);
        known.addAll(new TreeSet<>(phaseParameterNames));
        ramp.requireSection(known);
        if (count > 0) {
            throw new ConfigException(
                    ramp.path(), "needs a phase that ends by time (a ramp runs over the phase's time), not by count");
        }
        String shapeText = ramp.leaf("shape");
        RampConfig.Shape shape;
        try {
            shape = shapeText == null
                    ? RampConfig.Shape.LINEAR
                    : RampConfig.Shape.valueOf(shapeText.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(ramp.childPath("shape"), "'" + shapeText + "' is not a shape (linear or step)");
        }
        long every = 0;
        String everyText = ramp.leaf("every");
        if (shape == RampConfig.Shape.STEP) {
            if (everyText == null) {
                throw new ConfigException(ramp.childPath("every"), "is required with shape step (seconds per step)");
            }
            every = ramp.longAtLeast("every", 0, 1);
            if (every >= timeSeconds) {
                throw new ConfigException(
                        ramp.childPath("every"),
                        "'" + everyText + "' leaves no second step in the phase's time (" + timeSeconds
                                + " s); give fewer seconds per step");
            }
        } else if (everyText != null) {
            throw new ConfigException(
                    ramp.childPath("every"), "'" + everyText + "' is for shape step; this ramp is linear");
        }
        double targetRate = Double.NaN;
        String rateText = ramp.leaf("rate");
        if (rateText != null) {
            if (!rate.isOpen()) {
                throw new ConfigException(
                        ramp.childPath("rate"),
                        "'" + rateText + "' ramps the rate, but the phase's rate is "
                                + rate.kind().name().toLowerCase(Locale.ROOT) + "; give the phase a numeric rate");
            }
            targetRate = Leaves.parseFinite(ramp.childPath("rate"), rateText, "a number (operations per second)");
            if (!(targetRate > 0)) {
                throw new ConfigException(ramp.childPath("rate"), "'" + rateText + "' must be positive");
            }
        }
        List<Double> weights = List.of();
        if (ramp.single("weights") != null) {
            if (serial) {
                throw new ConfigException(
                        ramp.childPath("weights"), "'" + ramp.leaf("weights") + "' cannot ramp a serial phase's mix");
            }
            weights = WorksSection.weights(ramp, types);
        }
        Map<String, String> parameters = new LinkedHashMap<>();
        for (String parameter : phaseParameterNames) {
            String text = ramp.leaf(parameter);
            if (text != null) {
                parameters.put(parameter, text.strip());
            }
        }
        if (Double.isNaN(targetRate) && weights.isEmpty() && parameters.isEmpty()) {
            throw new ConfigException(
                    ramp.path(),
                    "ramps nothing: give a target rate, weights or "
                            + String.join(", ", known.subList(ELEMENTS.size(), known.size())));
        }
        return new RampConfig(shape, every, targetRate, weights, parameters);
    }
}
