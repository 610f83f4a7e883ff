package org.ivsbench.engine;

import java.util.SplittableRandom;
import java.util.stream.IntStream;

import org.ivsbench.config.PhaseConfig;
import org.ivsbench.config.RampConfig;
import org.ivsbench.random.RampedChoice;
import org.ivsbench.random.WeightedChoice;

/**
 * A terminal's choice of transaction type (the engine's terminals and the generator share it): by weight from the
 * terminal's stream for the phase, or in turn when the phase is serial; by the weights in effect at the ramp's
 * fraction when the phase ramps its mix.
 */
final class TypeChooser {
    private final SplittableRandom mixRandom;
    private final WeightedChoice weighted;
    private final RampedChoice ramped;
    private final int[] serialOrder;
    private int serialCursor;

    TypeChooser(PhaseConfig phase, SplittableRandom mixRandom) {
        this.mixRandom = mixRandom;
        double[] w = phase.weights().stream().mapToDouble(Double::doubleValue).toArray();
        weighted = new WeightedChoice(w);
        RampConfig ramp = phase.ramp();
        ramped = ramp != null && ramp.rampsWeights()
                ? new RampedChoice(
                        w,
                        ramp.weights().stream().mapToDouble(Double::doubleValue).toArray())
                : null;
        serialOrder = IntStream.range(0, w.length).filter(i -> w[i] > 0).toArray();
        serialCursor = phase.serial() ? 0 : -1;
    }

    int next() {
        if (serialCursor < 0) {
            return weighted.next(mixRandom);
        }
        int t = serialOrder[serialCursor];
        serialCursor = (serialCursor + 1) % serialOrder.length;
        return t;
    }

    int next(double rampFraction) {
        return ramped == null ? next() : ramped.next(mixRandom, rampFraction);
    }
}
