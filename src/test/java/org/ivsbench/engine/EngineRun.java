package org.ivsbench.engine;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.ivsbench.config.ArrivalKind;
import org.ivsbench.config.PhaseConfig;
import org.ivsbench.config.RateSpec;
import org.ivsbench.config.TransactionTypeConfig;
import org.ivsbench.stats.PhaseSummary;
import org.ivsbench.stats.RunInfo;
import org.ivsbench.stats.StatsCollector;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** One engine run in a test: the manager on a given clock, its statistics in a directory of their own. */
final class EngineRun {
    static final long MS = 1_000_000L;
    static final long SECOND = 1_000_000_000L;
    static final List<TransactionTypeConfig> TYPES =
            List.of(new TransactionTypeConfig("A", 0, 0), new TransactionTypeConfig("B", 0, 0));

    private final Path runDir;
    private final StatsCollector collector;
    private final WorkloadManager manager;

    EngineRun(
            Path parent,
            Clock clock,
            List<PhaseConfig> phases,
            List<TransactionTypeConfig> types,
            int terminals,
            long seed)
            throws Exception {
        runDir = Files.createTempDirectory(parent, "run");
        collector = new StatsCollector(
                runDir, new RunInfo("test", "fake", Map.of(), "sha256:x", seed, terminals, 1, phases));
        manager = new WorkloadManager(phases, types, terminals, seed, collector, clock);
    }

    /** Runs every phase and returns the summaries of the phases that started. */
    List<PhaseSummary> run(WorkloadManager.TerminalFactory factory) throws Exception {
        try {
            manager.run(factory);
        } finally {
            collector.close();
        }
        boolean complete = Files.readString(runDir.resolve("summary.json")).contains("\"complete\" : true");
        assertTrue(complete || manager.stopRequested(), "summary.json complete after a run that was not stopped");
        return collector.summaries();
    }

    WorkloadManager manager() {
        return manager;
    }

    Path runDir() {
        return runDir;
    }

    /** A phase with regular arrivals (for an open loop), not serial, no think time. */
    static PhaseConfig phase(
            int index, long timeSeconds, long count, long warmupSeconds, RateSpec rate, int active, double... weights) {
        List<Double> w = new ArrayList<>();
        for (double x : weights) {
            w.add(x);
        }
        return PhaseConfig.builder(index)
                .timeSeconds(timeSeconds)
                .count(count)
                .warmupSeconds(warmupSeconds)
                .rate(rate)
                .weights(w)
                .activeTerminals(active)
                .build();
    }

    static PhaseConfig withArrival(PhaseConfig p, ArrivalKind arrival) {
        return p.toBuilder().arrival(arrival).build();
    }

    static PhaseConfig withThinkTime(PhaseConfig p, long thinkMs) {
        return p.toBuilder().thinkTimeMs(thinkMs).build();
    }

    static PhaseConfig serial(PhaseConfig p) {
        return p.toBuilder().serial(true).build();
    }
}
