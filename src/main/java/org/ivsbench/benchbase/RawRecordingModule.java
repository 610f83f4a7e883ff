package org.ivsbench.benchbase;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.BooleanSupplier;

import org.ivsbench.bench.BenchmarkModule;
import org.ivsbench.bench.ExperimentSupport;
import org.ivsbench.bench.LoadProgress;
import org.ivsbench.bench.LoadReport;
import org.ivsbench.bench.Terminal;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.ConfigException;
import org.ivsbench.config.PhaseConfig;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;
import org.ivsbench.op.OpResult;

/** A benchmark whose terminals also write each operation to a {@link RawCsv}; everything else is the wrapped one's. */
public final class RawRecordingModule implements BenchmarkModule {
    private final BenchmarkModule module;
    private final RawCsv raw;

    public RawRecordingModule(BenchmarkModule module, RawCsv raw) {
        this.module = module;
        this.raw = raw;
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
        return new Recording(module.newTerminal(config, target, terminalId), terminalId);
    }

    @Override
    public Optional<ExperimentSupport> experiment() {
        return module.experiment();
    }

    private final class Recording implements Terminal {
        private final Terminal terminal;
        private final int id;
        private int phase;

        Recording(Terminal terminal, int id) {
            this.terminal = terminal;
            this.id = id;
        }

        @Override
        public void startPhase(PhaseConfig config, SplittableRandom random) {
            phase = config.index();
            raw.phaseStarted(phase, System.currentTimeMillis(), config.warmupSeconds());
            terminal.startPhase(config, random);
        }

        @Override
        public boolean beforeOperation(BooleanSupplier stillWanted) {
            return terminal.beforeOperation(stillWanted);
        }

        @Override
        public OpResult execute(int transactionTypeIndex) {
            long startMicros = System.currentTimeMillis() * 1000;
            long t0 = System.nanoTime();
            try {
                return terminal.execute(transactionTypeIndex);
            } finally {
                raw.record(transactionTypeIndex, startMicros, (System.nanoTime() - t0) / 1000, id, phase);
            }
        }

        @Override
        public void close() {
            terminal.close();
        }
    }
}
