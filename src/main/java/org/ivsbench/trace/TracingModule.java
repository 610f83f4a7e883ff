package org.ivsbench.trace;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import org.ivsbench.bench.BenchmarkModule;
import org.ivsbench.bench.ExperimentSupport;
import org.ivsbench.bench.LoadProgress;
import org.ivsbench.bench.LoadReport;
import org.ivsbench.bench.Terminal;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.ConfigException;
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
public final class TracingModule implements BenchmarkModule {
    private final BenchmarkModule module;
    private final TraceWriter writer;

    public TracingModule(BenchmarkModule module, TraceWriter writer) {
        this.module = module;
        this.writer = writer;
    }

    @Override
    public String name() {
        return module.name();
    }

    @Override
    public List<String> supportedTransactionTypes() {
        return module.supportedTransactionTypes();
    }

    @Override
    public Set<String> parameterNames() {
        return module.parameterNames();
    }

    @Override
    public Set<String> phaseParameterNames() {
        return module.phaseParameterNames();
    }

    @Override
    public void validate(BenchmarkConfig config) throws ConfigException {
        module.validate(config);
    }

    @Override
    public void create(BenchmarkConfig config, Target target) throws TargetException {
        module.create(config, target);
    }

    @Override
    public void checkReady(BenchmarkConfig config, Target target) throws TargetException {
        module.checkReady(config, target);
    }

    @Override
    public void clear(BenchmarkConfig config, Target target) throws TargetException {
        module.clear(config, target);
    }

    @Override
    public LoadReport load(BenchmarkConfig config, Target target, LoadProgress progress)
            throws TargetException, InterruptedException {
        return module.load(config, target, progress);
    }

    @Override
    public Terminal newTerminal(BenchmarkConfig config, Target target, int terminalId) throws TargetException {
        TerminalTrace trace = new TerminalTrace(writer, terminalId);
        return new Traced(module.newTerminal(config, new TracingTarget(target, trace), terminalId), trace);
    }

    @Override
    public Optional<ExperimentSupport> experiment() {
        return module.experiment();
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
