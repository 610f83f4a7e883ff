package org.ivsbench.trace;

import java.util.function.Consumer;

import org.ivsbench.bench.BenchmarkModule;
import org.ivsbench.bench.ForwardingModule;
import org.ivsbench.bench.Terminal;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.db.Record;
import org.ivsbench.db.Session;
import org.ivsbench.db.TableSpec;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;
import org.ivsbench.db.TargetKind;

/**
 * A benchmark whose terminals have no database: each terminal's sessions write the record operations its
 * procedures draw to a generated trace ({@link GeneratedSession}); everything else is the wrapped module's. The
 * terminals are the benchmark's own, so keys, values and field choices come from the same code and streams as in a
 * run. The target handed to the module is the config's kind, without a connection: it opens generating sessions
 * and refuses everything else.
 */
public final class GeneratingModule extends ForwardingModule {
    private final TraceWriter writer;

    public GeneratingModule(BenchmarkModule module, TraceWriter writer) {
        super(module);
        this.writer = writer;
    }

    /** A terminal of the wrapped benchmark whose sessions write to the trace; {@code kind}: the config's. */
    public Terminal newTerminal(BenchmarkConfig config, TargetKind kind, int terminalId) throws TargetException {
        return newTerminal(config, new NoDatabase(kind, null), terminalId);
    }

    @Override
    public Terminal newTerminal(BenchmarkConfig config, Target target, int terminalId) throws TargetException {
        TerminalTrace trace = new TerminalTrace(writer, terminalId);
        return new TraceTerminal(
                module.newTerminal(config, new NoDatabase(target.kind(), trace), terminalId), trace, false);
    }

    /** The config's kind of database, not connected: sessions that generate, and nothing else. */
    private record NoDatabase(TargetKind kind, TerminalTrace trace) implements Target {
        @Override
        public Session openSession() throws TargetException {
            if (trace == null) {
                throw new TargetException("generate: a terminal's target must come through GeneratingModule");
            }
            return new GeneratedSession(trace);
        }

        @Override
        public void createTable(TableSpec table) throws TargetException {
            throw none();
        }

        @Override
        public void dropTable(String table) throws TargetException {
            throw none();
        }

        @Override
        public long countRecords(String table) throws TargetException {
            throw none();
        }

        @Override
        public void forEachRecord(String table, Consumer<Record> consumer) throws TargetException {
            throw none();
        }

        @Override
        public void close() {}

        private static TargetException none() {
            return new TargetException("generate: there is no database");
        }
    }
}
