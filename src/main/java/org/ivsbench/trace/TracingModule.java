package org.ivsbench.trace;

import org.ivsbench.bench.BenchmarkModule;
import org.ivsbench.bench.ForwardingModule;
import org.ivsbench.bench.Terminal;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.db.ForwardingTarget;
import org.ivsbench.db.Session;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;

/**
 * A benchmark whose terminals' sessions write every record operation to a trace; everything else is the wrapped
 * module's. Each terminal gets a view of the target whose sessions trace (so a session reopened after a lost
 * connection traces too), and a terminal wrapper that tells the trace the phase and each operation's start.
 */
public final class TracingModule extends ForwardingModule {
    private final TraceWriter writer;

    public TracingModule(BenchmarkModule module, TraceWriter writer) {
        super(module);
        this.writer = writer;
    }

    @Override
    public Terminal newTerminal(BenchmarkConfig config, Target target, int terminalId) throws TargetException {
        TerminalTrace trace = new TerminalTrace(writer, terminalId);
        return new TraceTerminal(module.newTerminal(config, new TracingTarget(target, trace), terminalId), trace, true);
    }

    /** The run's target, except that its sessions trace. Closing it is the run's business, not a terminal's. */
    private static final class TracingTarget extends ForwardingTarget {
        private final TerminalTrace trace;

        TracingTarget(Target target, TerminalTrace trace) {
            super(target);
            this.trace = trace;
        }

        @Override
        public Session openSession() throws TargetException {
            return new TracingSession(target.openSession(), trace);
        }

        @Override
        public void close() {}
    }
}
