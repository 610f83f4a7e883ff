package org.ivsbench.engine;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.ivsbench.config.ArrivalKind;
import org.ivsbench.config.PhaseConfig;
import org.ivsbench.config.RampConfig;
import org.ivsbench.config.RateRamp;
import org.ivsbench.config.RateSpec;
import org.ivsbench.config.Shard;
import org.ivsbench.random.Seeds;
import org.ivsbench.stats.PhaseSummary;
import org.ivsbench.stats.RunInfo;
import org.ivsbench.stats.StatsCollector;

import static org.ivsbench.engine.EngineRun.MS;
import static org.ivsbench.engine.EngineRun.SECOND;
import static org.ivsbench.engine.EngineRun.TYPES;
import static org.ivsbench.engine.EngineRun.phase;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code --shard i/n} in the engine: the n shards together run exactly what one driver runs, split. */
class ShardedEngineTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(ArrivalKind.class)
    void theShardsTimelinesPartitionTheWholeTimeline(ArrivalKind kind) {
        int n = 3;
        List<Long> whole = new ArrayList<>();
        ArrivalProcess one = new ArrivalProcess(0, 1234.5, kind, Seeds.forStream(7, "arrivals", 0));
        for (int k = 0; k < 3000; k++, one.advance()) {
            whole.add(one.current());
        }
        List<Long> union = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ArrivalProcess part = new ArrivalProcess(0, 1234.5, kind, Seeds.forStream(7, "arrivals", 0), i, n);
            for (int k = 0; k < 1000; k++, part.advance()) {
                assertEquals(whole.get(i + k * n), part.current(), "shard " + i + " arrival " + k);
                union.add(part.current());
            }
        }
        union.sort(Long::compare);
        assertEquals(whole, union);
    }

    @ParameterizedTest
    @EnumSource(ArrivalKind.class)
    void theShardsOfARampedPhasePartitionItsWholeTimeline(ArrivalKind kind) {
        // 100 -> 300 ops/s over 10 s after 2 s of warmup at 100: the ramp's time change applies to every shard.
        RampConfig linear = new RampConfig(RampConfig.Shape.LINEAR, 0, 300, List.of(), Map.of());
        int n = 4;
        List<Long> whole = new ArrayList<>();
        ArrivalProcess one = new ArrivalProcess(
                0, 100, kind, Seeds.forStream(7, "arrivals", 0), new RateRamp(100, 300, 10, linear), 2);
        for (int k = 0; k < 2400; k++, one.advance()) {
            whole.add(one.current());
        }
        List<Long> union = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ArrivalProcess part = new ArrivalProcess(
                    0, 100, kind, Seeds.forStream(7, "arrivals", 0), new RateRamp(100, 300, 10, linear), 2, i, n);
            for (int k = 0; k < 600; k++, part.advance()) {
                assertEquals(whole.get(i + k * n), part.current(), "shard " + i + " arrival " + k);
                union.add(part.current());
            }
        }
        union.sort(Long::compare);
        assertEquals(whole, union);
    }

    @Test
    void shardsTakeTheirTerminalsTheirShareOfTheCountAndTheSameSequences() throws Exception {
        PhaseConfig closedCount = phase(0, 0, 101, 0, RateSpec.unlimited(), 5, 50, 50);
        PhaseConfig openTime = phase(1, 2, 0, 0, RateSpec.open(500), 5, 50, 50);
        List<PhaseConfig> phases = List.of(closedCount, openTime);
        Map<Integer, SimTerminal> whole = run(phases, Shard.WHOLE);
        long[] counts = new long[2];
        long[] open = new long[2];
        Map<Integer, SimTerminal> all = new TreeMap<>();
        for (int i = 0; i < 2; i++) {
            Shard shard = new Shard(i, 2);
            List<PhaseSummary> s = new ArrayList<>();
            Map<Integer, SimTerminal> terms = run(phases, shard, s);
            assertEquals(shard.index() == 0 ? List.of(0, 2, 4) : List.of(1, 3), List.copyOf(terms.keySet()));
            counts[i] = s.get(0).counts().total();
            open[i] = s.get(1).counts().total() + s.get(1).missed();
            all.putAll(terms);
        }
        assertEquals(51, counts[0], "shard 0's share of 101");
        assertEquals(50, counts[1], "shard 1's share of 101");
        assertEquals(500, open[0], "every other arrival of 1000");
        assertEquals(500, open[1]);
        for (int id = 0; id < 5; id++) {
            for (int p = 0; p < 2; p++) {
                List<String> a = whole.get(id).byPhase.getOrDefault(p, List.of());
                List<String> b = all.get(id).byPhase.getOrDefault(p, List.of());
                List<String> shorter = a.size() <= b.size() ? a : b;
                List<String> longer = a.size() <= b.size() ? b : a;
                assertEquals(shorter, longer.subList(0, shorter.size()), "terminal " + id + " phase " + p);
                assertTrue(!b.isEmpty(), "terminal " + id + " ran in phase " + p);
            }
        }
    }

    private Map<Integer, SimTerminal> run(List<PhaseConfig> phases, Shard shard) throws Exception {
        return run(phases, shard, new ArrayList<>());
    }

    private Map<Integer, SimTerminal> run(List<PhaseConfig> phases, Shard shard, List<PhaseSummary> summaries)
            throws Exception {
        VirtualClock clock = new VirtualClock();
        Path runDir = Files.createTempDirectory(dir, "run");
        StatsCollector collector =
                new StatsCollector(runDir, new RunInfo("test", "fake", Map.of(), "sha256:x", 9, 5, 1, phases));
        WorkloadManager manager = new WorkloadManager(phases, TYPES, 5, 9, collector, clock, shard);
        Map<Integer, SimTerminal> terms = new ConcurrentHashMap<>();
        try {
            manager.run(id -> {
                SimTerminal t = new SimTerminal(clock, MS);
                terms.put(id, t);
                return t;
            });
        } finally {
            collector.close();
        }
        summaries.addAll(collector.summaries());
        assertTrue(SECOND > 0);
        return new TreeMap<>(terms);
    }

    @Test
    void aShardOfOneIsTheWholeRun() {
        SplittableRandom r = Seeds.forStream(1, "arrivals", 0);
        ArrivalProcess a = new ArrivalProcess(5, 100, ArrivalKind.REGULAR, r, 0, 1);
        a.advance();
        assertEquals(5 + 10 * MS, a.current());
    }
}
