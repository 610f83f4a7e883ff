package org.ivsbench.mode;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.PhaseConfig;
import org.ivsbench.config.SweepConfig;
import org.ivsbench.config.TargetConfig;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class SweepPointsTest {
    private static final TargetConfig TARGET =
            new TargetConfig("SQLITE", null, "jdbc:sqlite:x.db", null, null, null, false, Map.of());

    private static BenchmarkConfig config(SweepConfig sweep) {
        PhaseConfig warm =
                PhaseConfig.builder(0).timeSeconds(5).activeTerminals(4).build();
        PhaseConfig counted =
                PhaseConfig.builder(1).count(100).activeTerminals(2).build();
        return BenchmarkConfig.builder(TARGET)
                .terminals(4)
                .phases(List.of(warm, counted))
                .sweep(sweep)
                .build();
    }

    @Test
    void pointsRunTerminalsOutermostThenCountsThenTrials() {
        List<SweepPoints.Point> points =
                SweepPoints.of(config(new SweepConfig(List.of(1, 8), List.of(10L, 20L), 2, false)));
        assertEquals(8, points.size());
        assertEquals(new SweepPoints.Point(1, 10L, 1), points.get(0));
        assertEquals(new SweepPoints.Point(1, 10L, 2), points.get(1));
        assertEquals(new SweepPoints.Point(1, 20L, 1), points.get(2));
        assertEquals(new SweepPoints.Point(8, 20L, 2), points.get(7));
        assertEquals("t8-n20-trial2", points.get(7).folderName());
    }

    @Test
    void withoutListsTheConfigsTerminalsAndPhaseEndsAreKept() {
        List<SweepPoints.Point> points = SweepPoints.of(config(new SweepConfig(List.of(), List.of(), 3, true)));
        assertEquals(3, points.size());
        assertEquals(4, points.get(0).terminals());
        assertNull(points.get(0).count());
        assertEquals("t4-nconfig-trial1", points.get(0).folderName());
    }

    @Test
    void aPointSetsTerminalsAndTheCountPhasesCount() {
        BenchmarkConfig base = config(new SweepConfig(List.of(2, 16), List.of(1000L), 1, false));
        BenchmarkConfig c = SweepPoints.configFor(base, new SweepPoints.Point(16, 1000L, 1));
        assertEquals(16, c.terminals());
        assertNull(c.sweep());
        // The phase that used all terminals follows the point; the one that used fewer keeps its number.
        assertEquals(16, c.phases().get(0).activeTerminals());
        assertEquals(5, c.phases().get(0).timeSeconds());
        assertEquals(2, c.phases().get(1).activeTerminals());
        assertEquals(1000, c.phases().get(1).count());
        assertEquals(1, SweepPoints.measuredPhase(c));
        // Fewer terminals than a phase's active ones cap it.
        assertEquals(
                1,
                SweepPoints.configFor(base, new SweepPoints.Point(1, 1000L, 1))
                        .phases()
                        .get(1)
                        .activeTerminals());
    }
}
