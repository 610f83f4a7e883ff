package org.ivsbench.engine;

import java.util.List;
import java.util.SplittableRandom;
import java.util.function.BooleanSupplier;

import org.ivsbench.bench.Terminal;
import org.ivsbench.config.ConfigException;
import org.ivsbench.config.PhaseConfig;
import org.ivsbench.config.RampConfig;
import org.ivsbench.config.RateSpec;
import org.ivsbench.config.TransactionTypeConfig;
import org.ivsbench.op.OpResult;
import org.ivsbench.random.LengthDistribution;
import org.ivsbench.random.Seeds;
import org.ivsbench.stats.PhaseStats;

/**
 * One terminal's thread: follows the phases on the board, takes claims from each phase's schedule, picks
 * the transaction type from its seeded stream for the phase, and records each operation exactly once.
 */
final class Worker implements Runnable {
    /** How often a pause checks whether its phase has ended, besides the manager's signal when it does. */
    private static final long PAUSE_RECHECK_NANOS = 50_000_000L;

    private final int id;
    private final Terminal terminal;
    private final long seed;
    private final List<TransactionTypeConfig> types;
    private final PhaseBoard board;
    private final Clock clock;
    private final InternalErrors internalErrors;
    private final Runnable onDeath;
    /** Set when startPhase failed: this phase's claims are recorded as that error instead of run. */
    private RuntimeException phaseFailure;
    /** The current phase's think-time distribution (null: the constant thinkTime) and its stream. */
    private LengthDistribution thinkTimes;

    private SplittableRandom thinkRandom;
    /** The current phase's ramp when it moves the mix or benchmark parameters, else null. */
    private RampConfig ramp;

    private boolean rampsTerminal;

    /** {@code onDeath}: called when the thread dies of an Error, so the run stops instead of waiting for it. */
    Worker(
            int id,
            Terminal terminal,
            long seed,
            List<TransactionTypeConfig> types,
            PhaseBoard board,
            Clock clock,
            Runnable onDeath) {
        this.id = id;
        this.terminal = terminal;
        this.seed = seed;
        this.types = types;
        this.board = board;
        this.clock = clock;
        this.internalErrors = new InternalErrors(id);
        this.onDeath = onDeath;
    }

    @Override
    public void run() {
        int seen = -1;
        try {
            PhaseRun run;
            while ((run = board.awaitAfter(seen)) != null) {
                seen = run.config().index();
                if (id < run.config().activeTerminals()) {
                    runPhase(run);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Error e) {
            // Out of memory and the like: carrying on is not safe, but neither is a count phase waiting
            // forever for this terminal's share. The run stops and keeps what was measured.
            InternalErrors.died(id, e);
            onDeath.run();
            throw e;
        }
    }

    private void runPhase(PhaseRun run) throws InterruptedException {
        PhaseConfig phase = run.config();
        SplittableRandom[] streams = WorkloadManager.terminalStreams(seed, id, phase.index());
        phaseFailure = null;
        try {
            terminal.startPhase(phase, streams[1]);
        } catch (RuntimeException e) {
            phaseFailure = e; // its operations would run on the previous phase's state: record, don't run
        }
        TypeChooser chooser = new TypeChooser(phase, streams[0]);
        try {
            thinkTimes = ThinkTimes.of(phase);
        } catch (ConfigException e) {
            throw new IllegalStateException(e.getMessage(), e); // the manager checked every phase before
        }
        // A stream of its own, so think times do not shift the mix's or the benchmark's draws.
        thinkRandom = thinkTimes == null ? null : Seeds.forStream(seed, "thinktime", id, phase.index());
        RampConfig r = phase.ramp();
        ramp = r != null && (r.rampsWeights() || !r.parameters().isEmpty()) ? r : null;
        rampsTerminal = ramp != null && !ramp.parameters().isEmpty();
        boolean open = phase.rate().kind() == RateSpec.Kind.OPEN;
        PhaseStats stats = run.stats();
        // Made once per phase, so the per-operation path allocates nothing for them.
        BooleanSupplier phaseOver = run.schedule()::exhausted;
        BooleanSupplier stillWanted = () -> !phaseOver.getAsBoolean();
        Claim claim;
        while ((claim = run.schedule().claim(clock.nanoTime())) != null) {
            TransactionTypeConfig ran;
            try {
                ran = runClaim(run, claim, chooser, open, stillWanted);
            } catch (InterruptedException e) {
                // Stopped while waiting for an arrival or in the pre-execution wait: the operation never ran,
                // so it is missed, not lost.
                if (claim.measured()) {
                    stats.recordMissed(clock.nanoTime() - claim.intendedNanos());
                }
                throw e;
            } finally {
                stats.operationDone();
            }
            if (ran != null) {
                pauseAfter(ran, phase, open, phaseOver);
            }
        }
    }

    /**
     * Runs one claimed operation and records it; returns its type, or null when it did not run. The
     * pre-execution wait is the terminal's, not the database's: it delays the operation but is counted in
     * neither response nor service time (in an open loop the intended start moves by the wait).
     */
    private TransactionTypeConfig runClaim(
            PhaseRun run, Claim claim, TypeChooser chooser, boolean open, BooleanSupplier stillWanted)
            throws InterruptedException {
        long intended = claim.intendedNanos();
        int type;
        if (ramp == null) {
            type = chooser.next();
        } else {
            // The ramp follows the schedule's time (the intended start), not the wall clock.
            double elapsed = (intended - run.measuredStartNanos()) / 1e9;
            double fraction = ramp.fraction(elapsed, run.config().timeSeconds());
            type = chooser.next(fraction);
            if (rampsTerminal) {
                terminal.rampTime(elapsed);
            }
        }
        TransactionTypeConfig tt = types.get(type);
        if (open) {
            clock.sleepUntil(intended);
        }
        if (tt.preExecutionWaitMs() > 0) {
            // Waited as precisely as an arrival: lateness here would show as start lag in the response time.
            long waitNanos = tt.preExecutionWaitMs() * 1_000_000L;
            clock.sleepUntil(clock.nanoTime() + waitNanos);
            intended += waitNanos;
        }
        if (phaseFailure != null) {
            return record(run, claim, type, internalErrors.outcome(tt.name(), phaseFailure), intended, intended);
        }
        boolean ready;
        try {
            ready = terminal.beforeOperation(stillWanted);
        } catch (RuntimeException e) {
            long now = clock.nanoTime();
            return record(run, claim, type, internalErrors.outcome(tt.name(), e), open ? intended : now, now);
        }
        if (!ready) {
            // The phase ended while the terminal waited for its database: the operation never ran.
            // An open-loop arrival is then missed; a closed-loop slot was no arrival at all.
            if (open && claim.measured()) {
                run.stats().recordMissed(clock.nanoTime() - claim.intendedNanos());
            }
            return null;
        }
        long start = clock.nanoTime();
        if (!open) {
            intended = start;
        }
        OpResult result;
        try {
            result = terminal.execute(type);
        } catch (RuntimeException e) {
            // A bug, not database trouble (that is an outcome): record it and keep the terminal alive.
            // Errors (out of memory, ...) still end the thread: carrying on after one is not safe.
            result = internalErrors.outcome(tt.name(), e);
        }
        return record(run, claim, type, result, intended, start);
    }

    /** Records one operation that ended now: response time from {@code intended}, service from {@code start}. */
    private TransactionTypeConfig record(
            PhaseRun run, Claim claim, int type, OpResult result, long intended, long start) {
        long end = clock.nanoTime();
        if (claim.measured()) {
            run.stats()
                    .record(
                            type,
                            result.outcome(),
                            end - intended,
                            end - start,
                            result.bytesRead(),
                            result.bytesWritten(),
                            result.reason(),
                            result.sizeBytes());
        } else {
            run.stats().recordWarmup();
        }
        return types.get(type);
    }

    /**
     * The post-execution wait and the think time: a constant think time in a closed loop only (an open loop is
     * paced by its arrivals), a think-time distribution in both (in an open loop: semi-open, the terminal takes
     * its next arrival only after thinking). They come after the operation is done, outside its in-flight span:
     * a count phase ends when its last operation completes, not after the pause that follows it, and a stop
     * during the pause does not count the completed operation a second time, as missed. The pause ends early
     * when the phase does, so a long think time does not keep the terminal out of the next phase.
     */
    private void pauseAfter(TransactionTypeConfig tt, PhaseConfig phase, boolean open, BooleanSupplier phaseOver)
            throws InterruptedException {
        long thinkMs = thinkTimes != null ? thinkTimes.next(thinkRandom) : open ? 0 : phase.thinkTimeMs();
        long pauseMs = tt.postExecutionWaitMs() + thinkMs;
        if (pauseMs > 0) {
            clock.awaitUntil(phaseOver, clock.nanoTime() + pauseMs * 1_000_000L, PAUSE_RECHECK_NANOS);
        }
    }
}
