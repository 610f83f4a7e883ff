package org.ivsbench.engine;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.bench.Terminal;
import org.ivsbench.config.PhaseConfig;
import org.ivsbench.config.RateSpec;
import org.ivsbench.op.OpResult;
import org.ivsbench.stats.PhaseSummary;

import static org.ivsbench.engine.EngineRun.MS;
import static org.ivsbench.engine.EngineRun.TYPES;
import static org.ivsbench.engine.EngineRun.phase;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The engine on the virtual clock with in-memory terminals: phase boundaries, count phases, warmup, idle
 * phases, stops, seeding and terminals that fail. Every count is exact. (A hang would be an engine bug: the
 * timeouts only turn one into a failure.)
 */
@Timeout(60)
class WorkloadManagerTest {
    @TempDir
    Path dir;

    private final VirtualClock clock = new VirtualClock();

    private List<PhaseSummary> run(
            List<PhaseConfig> phases, int terminals, long seed, Map<Integer, SimTerminal> out, long serviceNanos)
            throws Exception {
        return run(phases, terminals, seed, id -> {
            SimTerminal t = new SimTerminal(clock, serviceNanos);
            out.put(id, t);
            return t;
        });
    }

    private List<PhaseSummary> run(
            List<PhaseConfig> phases, int terminals, long seed, WorkloadManager.TerminalFactory factory)
            throws Exception {
        return new EngineRun(dir, clock, phases, TYPES, terminals, seed).run(factory);
    }

    @Test
    void countPhasesRunExactlyTheirCountAndWarmupIsExcluded() throws Exception {
        // Two terminals at 1 ms per operation: 2 x 1,000 warmup operations in the first second, then 2,500
        // rounds of two measured ones. The open count phase after it (0.1 ms per operation) ends with its 777th
        // operation, the one intended at 388 ms, done 0.1 ms later.
        List<PhaseConfig> phases = List.of(
                phase(0, 0, 5000, 1, RateSpec.unlimited(), 2, 70, 30),
                phase(1, 0, 777, 0, RateSpec.open(2000), 1, 0, 100));
        Map<Integer, SimTerminal> terms = new ConcurrentHashMap<>();
        List<PhaseSummary> s = run(phases, 2, 5, id -> {
            SimTerminal t = new SimTerminal(clock, MS) {
                @Override
                long serviceNanos(int nth) {
                    return phase == 0 ? MS : 100_000;
                }
            };
            terms.put(id, t);
            return t;
        });
        assertEquals(5000, s.get(0).counts().total());
        assertEquals(2000, s.get(0).warmupOperations());
        assertEquals(2.5, s.get(0).measuredSeconds());
        assertEquals(s.get(0).startMs() + 1000, s.get(0).measuredStartMs());
        assertEquals(2000.0, s.get(0).throughput());
        assertTrue(s.get(0).transactions().get("B").counts().skipped() > 0);
        assertEquals(s.get(0).endMs(), s.get(1).startMs(), "the next phase starts when the count is done");
        assertEquals(777, s.get(1).counts().total());
        assertEquals(0, s.get(1).missed());
        assertEquals(0.3881, s.get(1).measuredSeconds(), 1e-12);
        assertEquals(0, s.get(1).transactions().get("A").counts().total(), "weight 0 never chosen");
        assertEquals(1000 + 2500, terms.get(0).byPhase.get(0).size(), "terminal 0: warmup and measured operations");
        assertEquals(777, terms.get(0).byPhase.get(1).size(), "terminal 0 alone in phase 1");
    }

    @Test
    void aDisabledPhaseIdlesForItsTimeAndActiveTerminalsAreHonoured() throws Exception {
        Map<Integer, SimTerminal> terms = new ConcurrentHashMap<>();
        List<PhaseConfig> phases = List.of(
                phase(0, 1, 0, 0, RateSpec.disabled(), 2, 50, 50),
                phase(1, 0, 300, 0, RateSpec.unlimited(), 1, 50, 50));
        List<PhaseSummary> s = run(phases, 2, 9, terms, MS);
        assertEquals(0, s.get(0).counts().total());
        assertEquals(0, s.get(0).missed());
        assertEquals(s.get(0).startMs() + 1000, s.get(1).startMs());
        assertEquals(300, s.get(1).counts().total());
        assertEquals(0.3, s.get(1).measuredSeconds(), 1e-12);
        assertEquals(300, terms.get(0).log.size());
        assertEquals(0, terms.get(1).log.size(), "terminal 1 is not active in phase 1");
    }

    @Test
    void aTerminalWaitingForItsDatabaseLeavesWhenThePhaseEnds() throws Exception {
        // One terminal, 100 arrivals/s; its "database" goes away 0.5 s into the first 1 s phase and comes back
        // only in the next phase. The wait in beforeOperation ends with the phase: the arrival it held and the
        // 49 still due are missed, not lost, and the next phase starts on time and gets its terminal.
        List<PhaseConfig> phases = List.of(
                phase(0, 1, 0, 0, RateSpec.open(100), 1, 100, 0), phase(1, 1, 0, 0, RateSpec.open(100), 1, 100, 0));
        List<PhaseSummary> s = run(phases, 1, 1, id -> new SimTerminal(clock, MS) {
            @Override
            public boolean beforeOperation(BooleanSupplier stillWanted) {
                boolean away = phase == 0 && clock.nanoTime() >= 500 * MS;
                if (away) {
                    try {
                        clock.awaitUntil(() -> !stillWanted.getAsBoolean(), Long.MAX_VALUE, MS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                return !away;
            }
        });
        assertEquals(50, s.get(0).counts().total());
        assertEquals(50, s.get(0).missed());
        assertEquals(s.get(0).startMs() + 1000, s.get(1).startMs());
        assertEquals(100, s.get(1).counts().total(), "the next phase had its terminal");
        assertEquals(0, s.get(1).missed());
    }

    @Test
    void aStopRequestEndsThePhaseAtOnceAndSkipsTheRest() throws Exception {
        // 100 arrivals/s, 1 ms each; a stop at 2,505 ms. Arrivals 0 to 2,500 ms ran (251); the terminal had
        // taken the one due at 2,510 ms and was waiting for it: missed. The second phase never starts.
        List<PhaseConfig> phases = List.of(
                phase(0, 10, 0, 0, RateSpec.open(100), 1, 100, 0), phase(1, 10, 0, 0, RateSpec.open(100), 1, 100, 0));
        EngineRun run = new EngineRun(dir, clock, phases, TYPES, 1, 1);
        clock.at(2505 * MS, run.manager()::requestStop);
        List<PhaseSummary> s = run.run(id -> new SimTerminal(clock, MS));
        assertTrue(run.manager().stopRequested());
        assertEquals(1, s.size(), "the phases after the stop never start");
        assertEquals(251, s.get(0).counts().total());
        assertEquals(1, s.get(0).missed());
        assertEquals(2.505, s.get(0).measuredSeconds(), 1e-12);
    }

    @Test
    void sameSeedGivesTheSameSequencePerTerminal() throws Exception {
        List<PhaseConfig> phases = List.of(phase(0, 0, 2000, 0, RateSpec.unlimited(), 2, 40, 60));
        Map<Integer, SimTerminal> a = new ConcurrentHashMap<>();
        Map<Integer, SimTerminal> b = new ConcurrentHashMap<>();
        Map<Integer, SimTerminal> c = new ConcurrentHashMap<>();
        run(phases, 2, 42, a, 30_000);
        run(phases, 2, 42, b, 30_000);
        run(phases, 2, 43, c, 30_000);
        for (int id = 0; id < 2; id++) {
            assertEquals(1000, a.get(id).log.size(), "terminal " + id);
            assertEquals(a.get(id).log, b.get(id).log, "terminal " + id);
        }
        assertNotEquals(a.get(0).log, a.get(1).log, "terminals differ");
        assertNotEquals(a.get(0).log, c.get(0).log, "seeds differ");
    }

    @Test
    void aPhaseSequenceDoesNotDependOnHowManyOperationsTheEarlierPhaseRan() throws Exception {
        // Same seed, but the first phase is a one-second time phase at two different rates, so the terminals run
        // different numbers of operations in it. Each terminal's sequence in the second phase (type and "key")
        // must still be the same: its stream is derived for (terminal, phase), not carried over.
        Map<Integer, SimTerminal> a = new ConcurrentHashMap<>();
        Map<Integer, SimTerminal> b = new ConcurrentHashMap<>();
        run(
                List.of(
                        phase(0, 1, 0, 0, RateSpec.open(400), 2, 40, 60),
                        phase(1, 0, 2000, 0, RateSpec.unlimited(), 2, 40, 60)),
                2,
                42,
                a,
                30_000);
        run(
                List.of(
                        phase(0, 1, 0, 0, RateSpec.open(1000), 2, 40, 60),
                        phase(1, 0, 2000, 0, RateSpec.unlimited(), 2, 40, 60)),
                2,
                42,
                b,
                30_000);
        assertEquals(
                400, a.get(0).byPhase.get(0).size() + a.get(1).byPhase.get(0).size());
        assertEquals(
                1000, b.get(0).byPhase.get(0).size() + b.get(1).byPhase.get(0).size());
        for (int id = 0; id < 2; id++) {
            List<String> secondA = a.get(id).byPhase.get(1);
            assertEquals(1000, secondA.size(), "terminal " + id);
            assertEquals(secondA, b.get(id).byPhase.get(1), "terminal " + id + ", second phase");
            // Not the same stream restarted each phase: the phases' sequences differ.
            List<String> firstPhase = a.get(id).byPhase.get(0);
            int m = Math.min(50, firstPhase.size());
            assertNotEquals(firstPhase.subList(0, m), secondA.subList(0, m), "terminal " + id);
        }
    }

    /** Every seventh operation (over both terminals) hits a bug in its "driver"; 300 µs per operation. */
    final class BuggyTerminal implements Terminal {
        final AtomicInteger executed;
        final AtomicInteger executedInPhase1 = new AtomicInteger();
        private volatile int phase;

        BuggyTerminal(AtomicInteger executed) {
            this.executed = executed;
        }

        @Override
        public void startPhase(PhaseConfig p, SplittableRandom random) {
            phase = p.index();
        }

        @Override
        public OpResult execute(int type) {
            int n = executed.incrementAndGet();
            if (phase == 1) {
                executedInPhase1.incrementAndGet();
            }
            clock.work(300_000);
            if (n % 7 == 0) {
                int[] buffer = new int[1];
                return OpResult.ok(buffer[n], 0); // throws ArrayIndexOutOfBoundsException, as a driver might
            }
            return OpResult.ok();
        }

        @Override
        public void close() {}
    }

    @Test
    void aRuntimeExceptionFromATerminalIsAnErrorOutcomeAndTheTerminalCarriesOn() throws Exception {
        // Two count phases, so a terminal whose thread died in the first would be missing from the second (and
        // with both dead the first would never end). 1,000 operations in all: 142 of them throw.
        List<PhaseConfig> phases = List.of(
                phase(0, 0, 700, 0, RateSpec.unlimited(), 2, 50, 50),
                phase(1, 0, 300, 0, RateSpec.unlimited(), 2, 50, 50));
        AtomicInteger executed = new AtomicInteger();
        Map<Integer, BuggyTerminal> terms = new ConcurrentHashMap<>();
        List<PhaseSummary> s = run(phases, 2, 3, id -> {
            BuggyTerminal t = new BuggyTerminal(executed);
            terms.put(id, t);
            return t;
        });
        assertEquals(700, s.get(0).counts().total(), "every operation recorded, the throwing ones too");
        assertEquals(300, s.get(1).counts().total());
        assertEquals(142, s.get(0).counts().error() + s.get(1).counts().error());
        for (PhaseSummary p : s) {
            for (PhaseSummary.TypeSummary t : p.transactions().values()) {
                assertEquals(
                        t.counts().error(),
                        t.errors().getOrDefault("internal error: ArrayIndexOutOfBoundsException", 0L),
                        "all errors under the one reason");
                assertEquals(t.counts().error() > 0 ? 1 : 0, t.errors().size(), "no other reason: " + t.errors());
            }
        }
        for (int id = 0; id < 2; id++) {
            assertEquals(150, terms.get(id).executedInPhase1.get(), "terminal " + id + " carried on");
        }
    }

    @Test
    void anErrorEndsTheTerminalAndStopsTheRunInsteadOfHangingIt() throws Exception {
        // An Error (out of memory, a failed assertion) is not something to carry on from: it ends the terminal's
        // thread instead of becoming an "internal error" outcome. A count phase would then wait forever for the
        // dead terminal's share, so the run stops and fails, naming the terminal.
        List<PhaseConfig> phases = List.of(phase(0, 0, 1000, 0, RateSpec.unlimited(), 1, 100, 0));
        AtomicInteger calls = new AtomicInteger();
        Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
        // The dying thread reaches its handler after the run may already have returned: wait for it.
        CompletableFuture<Throwable> uncaught = new CompletableFuture<>();
        Thread.setDefaultUncaughtExceptionHandler((thread, e) -> uncaught.complete(e));
        try {
            IllegalStateException e = assertThrows(
                    IllegalStateException.class,
                    () -> run(phases, 1, 3, id -> new SimTerminal(clock, MS) {
                        @Override
                        public OpResult execute(int type) {
                            if (calls.incrementAndGet() == 5) {
                                throw new AssertionError("bug");
                            }
                            return super.execute(type);
                        }
                    }));
            assertTrue(e.getMessage().contains("terminal 0 died"), e.getMessage());
            Throwable reached = uncaught.get(30, TimeUnit.SECONDS);
            assertTrue(reached instanceof AssertionError, "the Error reached the thread's handler: " + reached);
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(previous);
        }
        assertEquals(5, calls.get(), "the thread ended at the Error");
    }

    @Test
    void aThrowingStartPhaseOrBeforeOperationIsRecordedNotFatal() throws Exception {
        // startPhase throws in phase 1 on terminal 0: its claims there are errors without running on stale
        // state; beforeOperation throws on every 5th operation of a terminal in phase 0: that operation is an
        // error. The terminals keep in step in phase 0 and would throw 40 times each, but at the last instant
        // each wants two claims (an error, which takes no time, and the next) and only two are left: whose
        // they are is a race between the threads, so 79 or 80 throw.
        List<PhaseConfig> phases = List.of(
                phase(0, 0, 400, 0, RateSpec.unlimited(), 2, 50, 50),
                phase(1, 0, 400, 0, RateSpec.unlimited(), 2, 50, 50));
        AtomicInteger ranInPhase1ByTerminal0 = new AtomicInteger();
        AtomicInteger beforeThrown = new AtomicInteger();
        List<PhaseSummary> s = run(phases, 2, 3, id -> new SimTerminal(clock, 200_000) {
            private int before;

            @Override
            public void startPhase(PhaseConfig p, SplittableRandom random) {
                super.startPhase(p, random);
                if (id == 0 && phase == 1) {
                    throw new IllegalStateException("no key generator for this phase");
                }
            }

            @Override
            public boolean beforeOperation(BooleanSupplier stillWanted) {
                if (phase == 0 && ++before % 5 == 0) {
                    beforeThrown.incrementAndGet();
                    throw new UnsupportedOperationException("bug");
                }
                return true;
            }

            @Override
            public OpResult execute(int type) {
                if (id == 0 && phase == 1) {
                    ranInPhase1ByTerminal0.incrementAndGet();
                }
                return super.execute(type);
            }
        });
        assertEquals(400, s.get(0).counts().total());
        assertEquals(beforeThrown.get(), s.get(0).counts().error());
        assertTrue(beforeThrown.get() == 79 || beforeThrown.get() == 80, "thrown " + beforeThrown.get());
        assertEquals(400, s.get(1).counts().total(), "the phase completes: terminal 1 runs, terminal 0 records");
        assertEquals(0, ranInPhase1ByTerminal0.get(), "nothing ran on the terminal whose startPhase failed");
        // (How the 400 claims split between the two terminals depends on which thread claims first at one
        // instant: terminal 0 records its errors without taking any time, so it may well take them all.)
        assertTrue(s.get(1).counts().error() > 0, s.get(1).counts().toString());
        assertEquals(400, s.get(1).counts().error() + s.get(1).counts().ok());
        for (PhaseSummary.TypeSummary t : s.get(1).transactions().values()) {
            assertEquals(t.counts().error(), t.errors().getOrDefault("internal error: IllegalStateException", 0L));
        }
    }
}
