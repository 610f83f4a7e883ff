package org.ivsbench.bench;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.Test;

import org.ivsbench.config.PhaseConfig;
import org.ivsbench.op.OpResult;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The terminal wrappers (the trace, the raw per-operation CSV) extend ForwardingTerminal: every call of Terminal
 * must reach the wrapped terminal, a default method included - a wrapper that kept Terminal's empty rampTime
 * stopped a traced or raw-recorded ramped phase from moving its mix and key distribution.
 */
class ForwardingTerminalTest {

    @Test
    void everyMethodOfTerminalIsForwardedNotLeftToItsDefault() {
        List<String> missing = new ArrayList<>();
        for (Method m : Terminal.class.getMethods()) {
            if (Modifier.isStatic(m.getModifiers())) {
                continue;
            }
            try {
                ForwardingTerminal.class.getDeclaredMethod(m.getName(), m.getParameterTypes());
            } catch (NoSuchMethodException e) {
                missing.add(m.getName());
            }
        }
        assertEquals(List.of(), missing);
    }

    @Test
    void theRampTimeReachesTheWrappedTerminal() {
        List<Double> seen = new ArrayList<>();
        Terminal wrapped = new Terminal() {
            @Override
            public void startPhase(PhaseConfig phase, SplittableRandom random) {}

            @Override
            public boolean beforeOperation(BooleanSupplier stillWanted) {
                return true;
            }

            @Override
            public void rampTime(double elapsedSeconds) {
                seen.add(elapsedSeconds);
            }

            @Override
            public OpResult execute(int transactionTypeIndex) {
                return null;
            }

            @Override
            public void close() {}
        };
        new ForwardingTerminal(wrapped) {}.rampTime(2.5);
        assertEquals(List.of(2.5), seen);
    }
}
