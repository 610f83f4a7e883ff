package org.ivsbench.benchbase;

import java.util.SplittableRandom;

import org.ivsbench.bench.BenchmarkModule;
import org.ivsbench.bench.ForwardingModule;
import org.ivsbench.bench.ForwardingTerminal;
import org.ivsbench.bench.Terminal;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.PhaseConfig;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;
import org.ivsbench.op.OpResult;

/** A benchmark whose terminals also write each operation to a {@link RawCsv}; everything else is the wrapped one's. */
public final class RawRecordingModule extends ForwardingModule {
    private final RawCsv raw;

    public RawRecordingModule(BenchmarkModule module, RawCsv raw) {
        super(module);
        this.raw = raw;
    }

    @Override
    public Terminal newTerminal(BenchmarkConfig config, Target target, int terminalId) throws TargetException {
        return new Recording(module.newTerminal(config, target, terminalId), terminalId);
    }

    private final class Recording extends ForwardingTerminal {
        private final int id;
        private int phase;

        Recording(Terminal terminal, int id) {
            super(terminal);
            this.id = id;
        }

        @Override
        public void startPhase(PhaseConfig config, SplittableRandom random) {
            phase = config.index();
            raw.phaseStarted(phase, System.currentTimeMillis(), config.warmupSeconds());
            terminal.startPhase(config, random);
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
    }
}
