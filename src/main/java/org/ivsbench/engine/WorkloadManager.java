package org.ivsbench.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.ivsbench.bench.Terminal;
import org.ivsbench.config.ConfigException;
import org.ivsbench.config.PhaseConfig;
import org.ivsbench.config.RampConfig;
import org.ivsbench.config.RateRamp;
import org.ivsbench.config.RateSpec;
import org.ivsbench.config.Shard;
import org.ivsbench.config.TransactionTypeConfig;
import org.ivsbench.random.Seeds;
import org.ivsbench.stats.PhaseStats;
import org.ivsbench.stats.StatsCollector;

/**
 * Runs the phases in order on one absolute timeline. A time phase lasts exactly warmup + time: the next
 * phase starts at its deadline whatever is still in flight (an operation belongs to the phase that
 * scheduled it), so no phase overruns or steals time. A count phase ends when its last measured operation
 * has completed.
 */
public final class WorkloadManager {

    /** Makes the bench terminal for a terminal id; its random streams come with each phase. */
    public interface TerminalFactory {
        Terminal create(int terminalId) throws Exception;
    }

    /**
     * How often the manager gives up arrivals no terminal came for ({@link Schedule#expire}), and how far past
     * their bound they must be: a stall's missed arrivals land within two of these of when they were due.
     */
    static final long EXPIRE_EVERY_NANOS = 100_000_000L;

    /** How long after a time phase's deadline terminals may still take arrivals that came due before it. */
    static final long DRAIN_GRACE_NANOS = 10_000_000L;
    /** How long terminal threads may take to finish after a stop before the run goes on without them. */
    static final long STOP_GRACE_NANOS = 5_000_000_000L;
    /** How often the manager checks what it waits for (a drain, a count phase's completion, the terminals' exit). */
    private static final long DRAIN_RECHECK_NANOS = 1_000_000L;

    private static final long COUNT_RECHECK_NANOS = 2_000_000L;

    private final List<PhaseConfig> phases;
    private final List<TransactionTypeConfig> types;
    private final int terminals;
    private final long seed;
    private final StatsCollector collector;
    private final Clock clock;
    private final Shard shard;
    private volatile StartGate startGate = () -> {};
    private final PhaseBoard board;
    private final AtomicReference<PhaseRun> current = new AtomicReference<>();
    private volatile boolean stopRequested;
    /** Set when a terminal thread died (an Error): the run stops and {@link #run} reports it as a failure. */
    private volatile String terminalDeath;

    private volatile Thread managerThread;

    public WorkloadManager(
            List<PhaseConfig> phases,
            List<TransactionTypeConfig> types,
            int terminals,
            long seed,
            StatsCollector collector,
            Clock clock) {
        this(phases, types, terminals, seed, collector, clock, Shard.WHOLE);
    }

    /**
     * One shard's part of the run ({@code --shard i/n}): {@code phases} and {@code terminals} are the whole run's;
     * this driver runs the terminals with global ids {@code i, i + n, ...} (each with that id's random streams and
     * active when that id is below a phase's active terminals), every n-th arrival of each open-loop timeline and
     * its share of each count phase's count.
     */
    public WorkloadManager(
            List<PhaseConfig> phases,
            List<TransactionTypeConfig> types,
            int terminals,
            long seed,
            StatsCollector collector,
            Clock clock,
            Shard shard) {
        this.shard = shard;
        this.phases = List.copyOf(phases);
        this.types = List.copyOf(types);
        this.terminals = terminals;
        this.seed = seed;
        this.collector = collector;
        this.clock = clock;
        this.board = new PhaseBoard(clock);
        try {
            ThinkTimes.validate(phases); // also checked with the config; fail before any terminal starts
        } catch (ConfigException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        for (PhaseConfig p : phases) {
            if (p.endsByCount() && p.rate().kind() == RateSpec.Kind.DISABLED) {
                throw new IllegalArgumentException("phase " + p.name() + ": a disabled phase must end by time");
            }
        }
    }

    /** Called on the manager thread once every terminal is ready, before the first phase starts. */
    public interface StartGate {
        void await() throws Exception;
    }

    /** Holds the first phase until {@code gate} returns (the shards' start barrier). */
    public void setStartGate(StartGate gate) {
        this.startGate = gate;
    }

    /**
     * A terminal's streams for one phase: [0] for the transaction mix, [1] handed to the benchmark. Derived
     * from the seed per (terminal, phase), not carried over from the previous phase, so a phase's sequence is
     * the same however many operations a time phase before it happened to fit in.
     */
    static SplittableRandom[] terminalStreams(long seed, int terminalId, int phaseIndex) {
        SplittableRandom base = Seeds.forStream(seed, "terminal", terminalId, phaseIndex);
        return new SplittableRandom[] {base.split(), base.split()};
    }

    /**
     * Runs all phases with one thread per terminal; returns when the last phase settled or a stop was
     * requested. Terminals are created (sessions opened) before the first phase starts.
     */
    public void run(TerminalFactory factory) throws Exception {
        Thread manager = Thread.currentThread();
        managerThread = manager;
        List<Terminal> created = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        AtomicInteger running = new AtomicInteger();
        clock.attach(manager);
        try {
            int owned = (int) shard.share(terminals);
            for (int local = 0; local < owned; local++) {
                created.add(factory.create((int) shard.global(local)));
            }
            for (int local = 0; local < owned; local++) {
                int id = (int) shard.global(local);
                int terminalId = id;
                Worker worker =
                        new Worker(id, created.get(local), seed, types, board, clock, () -> terminalDied(terminalId));
                Thread thread = new Thread(
                        () -> {
                            try {
                                worker.run();
                            } finally {
                                running.decrementAndGet();
                                clock.signalAll();
                                clock.detach(Thread.currentThread());
                            }
                        },
                        "terminal-" + id);
                thread.setDaemon(true);
                threads.add(thread);
                running.incrementAndGet();
                clock.attach(thread);
                thread.start();
            }
            startGate.await();
            runPhases();
            if (terminalDeath != null) {
                throw new IllegalStateException(terminalDeath);
            }
        } finally {
            board.close();
            awaitTerminals(threads, running);
            clock.detach(manager);
            for (Terminal t : created) {
                t.close();
            }
            managerThread = null;
        }
    }

    /**
     * Waits for the terminal threads to finish what they started. After a stop (or an interrupt) they are
     * interrupted and given {@link #STOP_GRACE_NANOS}: one stuck in its database does not hold the run.
     */
    private void awaitTerminals(List<Thread> threads, AtomicInteger running) {
        long giveUp = Long.MAX_VALUE;
        boolean interrupted = false;
        while (true) {
            if ((stopRequested || interrupted) && giveUp == Long.MAX_VALUE) {
                threads.forEach(Thread::interrupt);
                giveUp = clock.nanoTime() + STOP_GRACE_NANOS;
            }
            try {
                clock.awaitUntil(() -> running.get() == 0, giveUp, DRAIN_RECHECK_NANOS);
                return;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
    }

    private void runPhases() {
        long startNanos = clock.nanoTime();
        long wallBase = clock.wallMillis() - startNanos / 1_000_000;
        for (PhaseConfig phase : phases) {
            if (stopRequested) {
                return;
            }
            PhaseStats stats = collector.openPhase(
                    phase, types.stream().map(TransactionTypeConfig::name).toList());
            long measuredStart = startNanos + phase.warmupSeconds() * 1_000_000_000L;
            long deadline = phase.endsByCount() ? Long.MAX_VALUE : measuredStart + phase.timeSeconds() * 1_000_000_000L;
            stats.markStarted(wallBase + startNanos / 1_000_000, wallBase + measuredStart / 1_000_000);
            Schedule schedule = schedule(phase, stats, startNanos, measuredStart, deadline);
            PhaseRun run = new PhaseRun(phase, stats, schedule, measuredStart);
            current.set(run);
            board.post(run);
            long endNanos = phase.endsByCount() ? awaitCount(run) : awaitDeadline(run, deadline);
            double measuredSeconds = Math.max(0, endNanos - measuredStart) / 1e9;
            stats.markScheduleEnded(wallBase + endNanos / 1_000_000, measuredSeconds);
            startNanos = endNanos;
        }
    }

    private Schedule schedule(PhaseConfig phase, PhaseStats stats, long start, long measuredStart, long deadline) {
        RateSpec rate = phase.rate();
        return switch (rate.kind()) {
            case OPEN -> {
                RampConfig ramp = phase.ramp();
                RateRamp rateRamp = ramp != null && ramp.rampsRate()
                        ? new RateRamp(rate.opsPerSecond(), ramp.rate(), phase.timeSeconds(), ramp)
                        : null;
                ArrivalProcess arrivals = new ArrivalProcess(
                        start,
                        rate.opsPerSecond(),
                        phase.arrival(),
                        Seeds.forStream(seed, "arrivals", phase.index()),
                        rateRamp,
                        phase.warmupSeconds(),
                        shard.index(),
                        shard.count());
                long maxLag = Math.max(
                        arrivals.periodNanos() * Math.max(1, shard.share(phase.activeTerminals())),
                        phase.maxLatenessMs() * 1_000_000L);
                yield new OpenSchedule(arrivals, measuredStart, deadline, shard.share(phase.count()), maxLag, stats);
            }
            case UNLIMITED -> new ClosedSchedule(measuredStart, deadline, shard.share(phase.count()), stats);
            case DISABLED -> new IdleSchedule();
        };
    }

    private long awaitDeadline(PhaseRun run, long deadline) {
        try {
            for (long now = clock.nanoTime(); now < deadline; now = clock.nanoTime()) {
                clock.sleepUntil(Math.min(deadline, now + EXPIRE_EVERY_NANOS));
                run.schedule().expire(clock.nanoTime(), EXPIRE_EVERY_NANOS);
            }
        } catch (InterruptedException e) {
            // A stop request: end the phase now; what was measured stays measured.
        }
        long end = Math.min(deadline, clock.nanoTime());
        if (!stopRequested) {
            drain(run.schedule(), deadline);
        }
        run.schedule().end(clock.nanoTime());
        return end;
    }

    /**
     * Gives terminals a short grace ({@link #DRAIN_GRACE_NANOS}) to take the arrivals that came due just
     * before the deadline, so the cut misses nothing that was about to start. A real backlog at the deadline
     * (an overloaded phase) is still counted as missed when the grace is over, so it never spills into the
     * next phase, whose timeline stays anchored at the deadline.
     */
    private void drain(Schedule schedule, long deadline) {
        try {
            clock.awaitUntil(
                    () -> stopRequested || schedule.drained(), deadline + DRAIN_GRACE_NANOS, DRAIN_RECHECK_NANOS);
        } catch (InterruptedException e) {
            // A stop request: the phase ends now.
        }
    }

    private long awaitCount(PhaseRun run) {
        try {
            while (!clock.awaitUntil(
                    () -> stopRequested
                            || (run.schedule().exhausted() && run.stats().inFlight() == 0),
                    clock.nanoTime() + EXPIRE_EVERY_NANOS,
                    COUNT_RECHECK_NANOS)) {
                run.schedule().expire(clock.nanoTime(), EXPIRE_EVERY_NANOS);
            }
        } catch (InterruptedException e) {
            // A stop request: the phase ends now.
        }
        long end = clock.nanoTime();
        run.schedule().end(end);
        return end;
    }

    /** The phase running now, or null. */
    public PhaseStats currentPhase() {
        PhaseRun run = current.get();
        return run == null ? null : run.stats();
    }

    /** The index of the phase running now, or -1 before the first one (the monitor's phase column). */
    public int currentPhaseIndex() {
        PhaseRun run = current.get();
        return run == null ? -1 : run.config().index();
    }

    private void terminalDied(int id) {
        terminalDeath = "terminal " + id + " died (see the log); the run stopped after what it measured";
        requestStop();
    }

    /** Ends the current phase at once and skips the rest (Ctrl-C, SIGTERM). */
    public void requestStop() {
        stopRequested = true;
        Thread t = managerThread;
        if (t != null) {
            t.interrupt();
        }
    }

    public boolean stopRequested() {
        return stopRequested;
    }
}
