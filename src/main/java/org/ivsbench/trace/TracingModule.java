package org.ivsbench.trace;

import java.util.Optional;
import java.util.SplittableRandom;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import org.ivsbench.bench.BenchmarkModule;
import org.ivsbench.bench.ForwardingModule;
import org.ivsbench.bench.Terminal;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.PhaseConfig;
import org.ivsbench.db.Record;
import org.ivsbench.db.Session;
import org.ivsbench.db.TableSpec;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;
import org.ivsbench.db.TargetKind;
import org.ivsbench.op.OpResult;

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
        return new Traced(module.newTerminal(config, new TracingTarget(target, trace), terminalId), trace);
    }

    private static final class Traced implements Terminal {
        private final Terminal terminal;
        private final TerminalTrace trace;

        Traced(Terminal terminal, TerminalTrace trace) {
            this.terminal = terminal;
            this.trace = trace;
        }

        @Override
        public void startPhase(PhaseConfig phase, SplittableRandom random) {
            trace.phase(phase.index());
            terminal.startPhase(phase, random);
        }

        @Override
        public boolean beforeOperation(BooleanSupplier stillWanted) {
            return terminal.beforeOperation(stillWanted);
        }

        @Override
        public OpResult execute(int transactionTypeIndex) {
            trace.operationStarts();
            return terminal.execute(transactionTypeIndex);
        }

        @Override
        public void close() {
            terminal.close();
        }
    }

    /** The run's target, except that its sessions trace. Closing it is the run's business, not a terminal's. */
    private static final class TracingTarget implements Target {
        private final Target target;
        private final TerminalTrace trace;

        TracingTarget(Target target, TerminalTrace trace) {
            this.target = target;
            this.trace = trace;
        }

        @Override
        public TargetKind kind() {
            return target.kind();
        }

        @Override
        public Session openSession() throws TargetException {
            return new TracingSession(target.openSession(), trace);
        }

        @Override
        public void createTable(TableSpec table) throws TargetException {
            target.createTable(table);
        }

        @Override
        public void dropTable(String table) throws TargetException {
            target.dropTable(table);
        }

        @Override
        public long countRecords(String table) throws TargetException {
            return target.countRecords(table);
        }

        @Override
        public void forEachRecord(String table, Consumer<Record> consumer) throws TargetException {
            target.forEachRecord(table, consumer);
        }

        @Override
        public <T> Optional<T> capability(Class<T> type) {
            return target.capability(type);
        }

        @Override
        public void close() {}
    }
}
