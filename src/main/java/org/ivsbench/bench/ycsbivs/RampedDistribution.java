package org.ivsbench.bench.ycsbivs;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;

import org.ivsbench.config.ConfigException;
import org.ivsbench.config.LeafView;
import org.ivsbench.config.PhaseConfig;
import org.ivsbench.config.RampConfig;
import org.ivsbench.random.DistributionSpec;

/**
 * A phase's key distribution whose parameters ramp ({@code <ramp><distribution>}): the same distribution at
 * both ends, each parameter moved by the ramp's fraction ({@code zipfian(theta=0.5)} to
 * {@code zipfian(theta=0.99)}). Every parameter range is an interval, so each setting between two valid ones is
 * valid too. A key generator is built per setting, so a linear ramp moves the parameters once per second of
 * schedule time (a step ramp at its steps), not per operation.
 */
final class RampedDistribution {
    private final DistributionSpec from;
    private final DistributionSpec to;

    private RampedDistribution(DistributionSpec from, DistributionSpec to) {
        this.from = from;
        this.to = to;
    }

    /** The phase's ramped distribution, or null when its ramp leaves the distribution alone. */
    static RampedDistribution of(PhaseConfig phase) throws ConfigException {
        RampConfig ramp = phase.ramp();
        if (ramp == null) {
            return null;
        }
        LeafView rampLeaves =
                LeafView.of(ramp.parameters(), phase.parameterView().childPath("ramp"));
        String target = rampLeaves.leaf(YcsbIvsParameters.DISTRIBUTION);
        if (target == null) {
            return null;
        }
        String path = rampLeaves.childPath(YcsbIvsParameters.DISTRIBUTION);
        DistributionSpec from = YcsbIvsParameters.distribution(phase);
        DistributionSpec to = YcsbIvsParameters.keyDistribution(path, target);
        if (!from.name().equals(to.name())) {
            throw new ConfigException(
                    path,
                    "'" + target + "' is not " + from.name() + " (the phase's distribution, '" + from.text()
                            + "'): a ramp moves the parameters of one distribution");
        }
        if (!from.parameters().keySet().equals(to.parameters().keySet())) {
            throw new ConfigException(
                    path,
                    "'" + target + "' and the phase's '" + from.text()
                            + "' must give the same parameters (one has a parameter without a default the other lacks)");
        }
        if (from.parameters().isEmpty()) {
            throw new ConfigException(path, "'" + target + "': " + from.name() + " has no parameters to ramp");
        }
        return new RampedDistribution(from, to);
    }

    /**
     * Which setting applies at {@code elapsedSeconds}: the step of a step ramp, the whole second of a linear
     * one (clamped to the phase's time).
     */
    static long slot(RampConfig ramp, double elapsedSeconds, long lengthSeconds) {
        if (!(elapsedSeconds > 0)) {
            return 0;
        }
        long second = (long) Math.min(elapsedSeconds, lengthSeconds);
        return ramp.shape() == RampConfig.Shape.STEP
                ? Math.min(second / ramp.everySeconds(), ramp.steps(lengthSeconds) - 1)
                : second;
    }

    /** The ramp fraction a slot stands for. */
    static double fraction(RampConfig ramp, long slot, long lengthSeconds) {
        return ramp.shape() == RampConfig.Shape.STEP
                ? ramp.fraction((double) slot * ramp.everySeconds(), lengthSeconds)
                : ramp.fraction(slot, lengthSeconds);
    }

    /** The distribution at ramp {@code fraction}. */
    DistributionSpec at(double fraction) {
        if (fraction <= 0) {
            return from;
        }
        if (fraction >= 1) {
            return to;
        }
        Map<String, Double> parameters = new LinkedHashMap<>();
        StringJoiner text = new StringJoiner(", ", from.name() + "(", ")");
        for (Map.Entry<String, Double> e : from.parameters().entrySet()) {
            double v = RampConfig.between(e.getValue(), to.get(e.getKey()), fraction);
            parameters.put(e.getKey(), v);
            text.add(e.getKey() + "=" + String.format(Locale.ROOT, "%.6g", v));
        }
        return new DistributionSpec(from.name(), parameters, text.toString());
    }
}
