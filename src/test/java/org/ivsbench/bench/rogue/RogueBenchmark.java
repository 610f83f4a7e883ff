package org.ivsbench.bench.rogue;

import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.ivsbench.bench.Terminal;
import org.ivsbench.bench.kv.KvModule;
import org.ivsbench.config.PhaseConfig;
import org.ivsbench.db.ReconnectingSession;
import org.ivsbench.db.Session;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;
import org.ivsbench.op.OpResult;

/**
 * Deliberate violations of the benchmark skeleton's rules, one per nested class, for LayeringTest to show that each
 * rule fails on them (LayeringTest checks the main classes only, so these never break the build). Never run.
 */
public final class RogueBenchmark {
    private RogueBenchmark() {}

    /** Implements the terminal contract itself instead of extending SessionTerminal. */
    public static final class DirectTerminal implements Terminal {
        @Override
        public void startPhase(PhaseConfig phase, SplittableRandom random) {}

        @Override
        public OpResult execute(int transactionTypeIndex) {
            return OpResult.error("never run");
        }

        @Override
        public void close() {}
    }

    /** Loads on a thread pool of its own instead of extending ChunkedLoader. */
    public static final class OwnThreadsLoader {
        public void load(Runnable slice) {
            ExecutorService pool = Executors.newFixedThreadPool(2);
            pool.submit(slice);
            pool.shutdown();
        }
    }

    /** Decides about reconnecting itself instead of leaving it to SessionTerminal. */
    public static final class OwnReconnect {
        public Session open(Target target) throws TargetException {
            return ReconnectingSession.open(target, true);
        }
    }

    /** Uses another benchmark's classes. */
    public static final class Borrower {
        public String borrowed() {
            return new KvModule().name();
        }
    }
}
