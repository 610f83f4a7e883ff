package org.ivsbench.trace;

import java.util.SplittableRandom;

import org.ivsbench.bench.ForwardingTerminal;
import org.ivsbench.bench.Terminal;
import org.ivsbench.config.PhaseConfig;
import org.ivsbench.op.OpResult;

/**
 * A terminal that tells its trace the phase it starts and, when {@code timed}, each operation's start (a traced
 * run's records carry their timing; a generated stream's have none). Everything else is the wrapped terminal's.
 */
final class TraceTerminal extends ForwardingTerminal {
    private final TerminalTrace trace;
    private final boolean timed;

    TraceTerminal(Terminal terminal, TerminalTrace trace, boolean timed) {
        super(terminal);
        this.trace = trace;
        this.timed = timed;
    }

    @Override
    public void startPhase(PhaseConfig phase, SplittableRandom random) {
        trace.phase(phase.index());
        terminal.startPhase(phase, random);
    }

    @Override
    public OpResult execute(int transactionTypeIndex) {
        if (timed) {
            trace.operationStarts();
        }
        return terminal.execute(transactionTypeIndex);
    }
}
