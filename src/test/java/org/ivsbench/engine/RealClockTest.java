package org.ivsbench.engine;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.bench.Terminal;
import org.ivsbench.config.PhaseConfig;
import org.ivsbench.config.RateSpec;
import org.ivsbench.op.OpResult;
import org.ivsbench.stats.PhaseSummary;

import static org.ivsbench.engine.EngineRun.TYPES;
import static org.ivsbench.engine.EngineRun.phase;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * End-to-end sanity on {@link Clock#SYSTEM}. These stay on the real clock because what they guard is the
 * real one: parking and waking threads, the manager's polling of a drain, and the statistics windows, which
 * follow the wall clock. The schedule's logic is tested exactly on the virtual clock; here only counts the
 * schedule fixes are asserted (no elapsed-time bounds), with terminals far from their capacity; a missed arrival
 * fails a test only when the run's own start lags show the terminals kept up.
 */
@Tag("realclock")
class RealClockTest {
    @TempDir
    Path dir;

    /** Parks for {@code micros} per operation. */
    private static Terminal parking(long micros) {
        return new Terminal() {
            @Override
            public void startPhase(PhaseConfig phase, SplittableRandom random) {}

            @Override
            public OpResult execute(int type) {
                LockSupport.parkNanos(micros * 1000);
                return OpResult.ok();
            }

            @Override
            public void close() {}
        };
    }

    /**
     * Every arrival of an open-loop phase is accounted for: it ran or it was counted as missed. A miss is a
     * fault only when no terminal was ever late by the drain grace in this run (its largest measured start lag):
     * then the terminals kept up and the arrivals near the deadline had nothing to miss them for. On a box that
     * stalled the engine's threads for that long, missing arrivals is the engine reporting the stall correctly.
     */
    private static void assertArrivalsAccountedFor(PhaseSummary s, long arrivals) {
        assertEquals(arrivals, s.counts().total() + s.missed(), "operations + missed = rate x time");
        Long maxLagUs = s.startLagUs().max();
        if (maxLagUs != null && maxLagUs * 1000 < WorkloadManager.DRAIN_GRACE_NANOS) {
            assertEquals(
                    0,
                    s.missed(),
                    "missed with terminals never late by the drain grace (max start lag " + maxLagUs + " us)");
        } else {
            System.out.println("phase " + s.index() + ": start lag reached " + maxLagUs + " us, " + s.missed()
                    + " missed arrivals reported as such");
        }
    }

    private List<PhaseSummary> run(List<PhaseConfig> phases, long micros) throws Exception {
        return new EngineRun(dir, Clock.SYSTEM, phases, TYPES, 2, 1).run(id -> parking(micros));
    }

    @Test
    void aRateLimitedPhaseThenAnUnlimitedOneMeasureBoth() throws Exception {
        List<PhaseConfig> phases = List.of(
                phase(0, 2, 0, 0, RateSpec.open(200), 2, 50, 50), phase(1, 1, 0, 0, RateSpec.unlimited(), 2, 50, 50));
        List<PhaseSummary> s = run(phases, 50);
        assertArrivalsAccountedFor(s.get(0), 400);
        assertEquals(s.get(0).counts().total() / 2.0, s.get(0).throughput());
        assertTrue(
                s.get(1).counts().total() > 0,
                "unlimited phase measured " + s.get(1).counts().total());
        assertEquals(s.get(0).measuredStartMs() + 2000, s.get(1).startMs(), "one timeline: no overrun");
    }

    @Test
    void aHealthyOpenLoopRunsEveryArrivalAndMissesNone() throws Exception {
        // 2,500 arrivals/s against two terminals of ~3,000/s each (300 µs parks plus wake-up): every arrival
        // runs. A guard for the race between the deadline and arrivals due just before it, seen on MariaDB
        // (scripts/bench/rate-accuracy.sh): on the virtual clock the drain is exact, here it meets real wake-ups.
        List<PhaseConfig> phases = List.of(
                phase(0, 2, 0, 0, RateSpec.open(2500), 2, 50, 50), phase(1, 1, 0, 0, RateSpec.open(1000), 2, 50, 50));
        List<PhaseSummary> s = run(phases, 300);
        assertArrivalsAccountedFor(s.get(0), 5000);
        assertArrivalsAccountedFor(s.get(1), 1000);
    }

    @Test
    void samplesCsvWindowsAreAlignedAndCountEveryOperation() throws Exception {
        // 3,000 operations at 1,500/s: two seconds, so the statistics thread cuts at least one wall-clock window.
        EngineRun run = new EngineRun(
                dir, Clock.SYSTEM, List.of(phase(0, 0, 3000, 0, RateSpec.open(1500), 2, 50, 50)), TYPES, 2, 1);
        run.run(id -> parking(0));
        List<String> lines = Files.readAllLines(run.runDir().resolve("samples.csv"));
        long total = 0;
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",", -1);
            if (f[3].equals("ALL")) {
                total += Long.parseLong(f[4]) + Long.parseLong(f[5]) + Long.parseLong(f[6]) + Long.parseLong(f[7]);
            }
        }
        assertEquals(3000, total);
        String[] first = lines.get(1).split(",");
        assertEquals(0, Long.parseLong(first[0]) % 1000, "window start on a second boundary");
    }
}
