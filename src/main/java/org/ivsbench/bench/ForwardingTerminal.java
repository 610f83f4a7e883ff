package org.ivsbench.bench;

import java.util.SplittableRandom;
import java.util.function.BooleanSupplier;

import org.ivsbench.config.PhaseConfig;
import org.ivsbench.op.OpResult;

/**
 * A terminal that is another one in every respect, every call of {@link Terminal} forwarded; a subclass changes what
 * it needs (the trace and the raw per-operation CSV watch phases and operations, nothing else).
 */
public abstract class ForwardingTerminal implements Terminal {
    protected final Terminal terminal;

    protected ForwardingTerminal(Terminal terminal) {
        this.terminal = terminal;
    }

    @Override
    public void startPhase(PhaseConfig phase, SplittableRandom random) {
        terminal.startPhase(phase, random);
    }

    @Override
    public boolean beforeOperation(BooleanSupplier stillWanted) {
        return terminal.beforeOperation(stillWanted);
    }

    @Override
    public void rampTime(double elapsedSeconds) {
        terminal.rampTime(elapsedSeconds);
    }

    @Override
    public OpResult execute(int transactionTypeIndex) {
        return terminal.execute(transactionTypeIndex);
    }

    @Override
    public void close() {
        terminal.close();
    }
}
