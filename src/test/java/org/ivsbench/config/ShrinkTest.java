package org.ivsbench.config;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.ivsbench.bench.ycsb.YcsbModule;
import org.ivsbench.bench.ycsbivs.YcsbIvsModule;
import org.ivsbench.experiment.ExperimentSpec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** --shrink's caps (pure logic): every size setting is capped, a smaller one kept, and every change is listed. */
class ShrinkTest {
    private static final TargetConfig SQLITE = new TargetConfig(
            "SQLITE", "org.sqlite.JDBC", "jdbc:sqlite:x.db", null, null, "TRANSACTION_SERIALIZABLE", false, Map.of());

    /** A config whose scale factor is already small (the default, 1, is capped like any size). */
    private static BenchmarkConfig.Builder base() {
        return BenchmarkConfig.builder(SQLITE).source(Path.of("c.xml")).scaleFactor(0.1);
    }

    @Test
    void capsTheBenchmarksDeclaredParametersAndScaleFactor() {
        BenchmarkConfig c = base().scaleFactor(3)
                .parameters(Map.of("big", "1000", "small", "40", "other", "99999", "bad", "x1"))
                .build();
        BenchmarkConfig s = Shrink.apply(c, Map.of("big", 100L, "small", 100L, "bad", 100L), Map.of());
        assertEquals(Map.of("big", "100", "small", "40", "other", "99999", "bad", "x1"), s.parameters());
        assertEquals(0.1, s.scaleFactor());
        assertEquals(List.of("big 1000 -> 100", "scalefactor 3 -> 0.1"), s.shrunk());
    }

    @Test
    void capsPhaseTimeCountWarmupAndAStepRampThatWouldNoLongerFit() {
        PhaseConfig time = PhaseConfig.builder(0)
                .timeSeconds(600)
                .warmupSeconds(30)
                .rate(RateSpec.open(100))
                .ramp(new RampConfig(RampConfig.Shape.STEP, 60, 200, List.of(), Map.of()))
                .build();
        PhaseConfig count = PhaseConfig.builder(1).count(100_000).build();
        PhaseConfig small = PhaseConfig.builder(2).timeSeconds(1).build();
        PhaseConfig fewOps = PhaseConfig.builder(3).count(50).warmupSeconds(1).build();
        BenchmarkConfig s =
                Shrink.apply(base().phases(List.of(time, count, small, fewOps)).build(), Map.of(), Map.of());
        assertEquals(2, s.phases().get(0).timeSeconds());
        assertEquals(1, s.phases().get(0).warmupSeconds());
        assertEquals(1, s.phases().get(0).ramp().everySeconds());
        assertEquals(200.0, s.phases().get(0).ramp().rate());
        assertEquals(100.0, s.phases().get(0).rate().opsPerSecond(), "the rate is not a size");
        assertEquals(200, s.phases().get(1).count());
        assertEquals(small, s.phases().get(2));
        assertEquals(fewOps, s.phases().get(3));
        assertEquals(
                List.of(
                        "works/work[1]/time 600 -> 2",
                        "works/work[1]/warmup 30 -> 1",
                        "works/work[1]/ramp/every 60 -> 1",
                        "works/work[2]/count 100000 -> 200"),
                s.shrunk());
    }

    @Test
    void capsTheExperimentLeavesTheRunnerAndTheBenchmarkDeclare() {
        Map<String, String> experiment = new LinkedHashMap<>();
        experiment.put("epochs", "100");
        experiment.put("modes", "main,clean");
        experiment.put("trials", "5");
        experiment.put("warmup", "0");
        experiment.put("extend/count", "100000");
        experiment.put("run/count", "150");
        Map<String, Long> caps = ExperimentSpec.shrinkCaps(new YcsbIvsModule());
        assertEquals(
                Map.of(
                        "epochs",
                        1L,
                        "warmup",
                        1L,
                        "trials",
                        2L,
                        "quiesce/timeout",
                        2L,
                        "extend/count",
                        200L,
                        "run/count",
                        200L),
                caps);
        BenchmarkConfig s = Shrink.apply(base().experiment(experiment).build(), Map.of(), caps);
        assertEquals("1", s.experiment().get("epochs"));
        assertEquals("2", s.experiment().get("trials"));
        assertEquals("0", s.experiment().get("warmup"));
        assertEquals("200", s.experiment().get("extend/count"));
        assertEquals("150", s.experiment().get("run/count"));
        assertEquals("main,clean", s.experiment().get("modes"));
        assertEquals(
                List.of(
                        "experiment/epochs 100 -> 1",
                        "experiment/extend/count 100000 -> 200",
                        "experiment/trials 5 -> 2"),
                s.shrunk());
    }

    @Test
    void keepsTheFirstAndLastPointOfEachSweepAxis() {
        SweepConfig sweep = new SweepConfig(List.of(1, 2, 4, 8, 16), List.of(500L, 1000L, 5000L), 3, true);
        BenchmarkConfig s = Shrink.apply(base().sweep(sweep).build(), Map.of(), Map.of());
        // Counts 500 and 5000 are both capped at 200: one point.
        assertEquals(new SweepConfig(List.of(1, 16), List.of(200L), 2, true), s.sweep());
        assertEquals(
                List.of(
                        "sweep/terminals 1,2,4,8,16 -> 1,16",
                        "sweep/counts 500,1000,5000 -> 200",
                        "sweep/trials 3 -> 2"),
                s.shrunk());
        SweepConfig two = new SweepConfig(List.of(1, 8), List.of(), 1, false);
        assertEquals(
                two, Shrink.apply(base().sweep(two).build(), Map.of(), Map.of()).sweep());
    }

    @Test
    void capsTerminalsAPhasesActiveTerminalsAndEachSweepPointAt16() {
        PhaseConfig all = PhaseConfig.builder(0).count(10).activeTerminals(512).build();
        PhaseConfig some = PhaseConfig.builder(1).count(10).activeTerminals(100).build();
        PhaseConfig few = PhaseConfig.builder(2).count(10).activeTerminals(3).build();
        SweepConfig sweep = new SweepConfig(List.of(1, 2, 4, 8, 16, 32, 64, 128, 256, 512), List.of(), 1, false);
        BenchmarkConfig s = Shrink.apply(
                base().terminals(512)
                        .phases(List.of(all, some, few))
                        .sweep(sweep)
                        .build(),
                Map.of(),
                Map.of());
        assertEquals(16, s.terminals());
        assertEquals(
                List.of(16, 16, 3),
                s.phases().stream().map(PhaseConfig::activeTerminals).toList());
        assertEquals(List.of(1, 16), s.sweep().terminals());
        assertEquals(
                List.of(
                        "terminals 512 -> 16",
                        "works/work[2]/active_terminals 100 -> 16",
                        "sweep/terminals 1,2,4,8,16,32,64,128,256,512 -> 1,16"),
                s.shrunk());
        // A sweep whose points all lie above the cap becomes one point; 16 itself is kept.
        SweepConfig high = new SweepConfig(List.of(32, 64, 128), List.of(), 1, false);
        assertEquals(
                List.of(16),
                Shrink.apply(base().sweep(high).build(), Map.of(), Map.of())
                        .sweep()
                        .terminals());
        BenchmarkConfig sixteen = base().terminals(16).build();
        assertEquals(sixteen, Shrink.apply(sixteen, Map.of(), Map.of()));
    }

    @Test
    void aConfigAlreadySmallIsUnchangedAndSaysSo() {
        BenchmarkConfig c = base().scaleFactor(0.05)
                .phases(List.of(PhaseConfig.builder(0).count(10).build()))
                .build();
        BenchmarkConfig s = Shrink.apply(c, Map.of(), Map.of());
        assertEquals(c, s);
        assertEquals(
                "--shrink: nothing to shrink (a smoke-test size: not a result to compare)", Shrink.describe("", s));
    }

    @Test
    void aShippedPresetShrinksToItsCapsAndTheLineSaysWhat() throws Exception {
        Path preset = Path.of("config/experiments/ycsbivs_mariadb_lightweight_zipfian.xml");
        BenchmarkConfig c = YcsbIvsNames.load(preset, Map.of("IVS_MARIADB_PASSWORD", "x"));
        YcsbIvsModule module = new YcsbIvsModule();
        BenchmarkConfig s = Shrink.apply(c, module.shrinkCaps(), ExperimentSpec.shrinkCaps(module));
        module.validate(s);
        assertEquals(
                "tenant a: --shrink: recordcount 1000 -> 100, scalefactor 1 -> 0.1, experiment/epochs 100 -> 1, experiment/extend/count"
                        + " 10000 -> 200, experiment/run/count 100000 -> 200 (a smoke-test size: not a result to compare)",
                Shrink.describe("tenant a: ", s));
        // Shrinking twice changes nothing more.
        BenchmarkConfig again = Shrink.apply(s, module.shrinkCaps(), ExperimentSpec.shrinkCaps(module));
        assertEquals(s.shrunk(), again.shrunk());
    }

    @Test
    void theQuiescenceTimeoutIsCappedAt2sItsDefaultIncludedAndZeroStaysOff() throws Exception {
        Path preset = Path.of("config/experiments/ycsbivs_mariadb_lightweight_zipfian.xml");
        BenchmarkConfig c = YcsbIvsNames.load(preset, Map.of("IVS_MARIADB_PASSWORD", "x"));
        YcsbIvsModule module = new YcsbIvsModule();
        assertTrue(!c.experiment().containsKey("quiesce/timeout"), "the preset leaves the default (60 s)");
        BenchmarkConfig s = Shrink.apply(
                ExperimentSpec.withSizedDefaults(c), module.shrinkCaps(), ExperimentSpec.shrinkCaps(module));
        assertEquals("2", s.experiment().get("quiesce/timeout"));
        assertTrue(
                s.shrunk().contains("experiment/quiesce/timeout 60 -> 2"),
                s.shrunk().toString());
        for (String set : List.of("0", "1")) {
            Map<String, String> e = new LinkedHashMap<>(c.experiment());
            e.put("quiesce/timeout", set);
            BenchmarkConfig own = c.toBuilder().experiment(e).build();
            BenchmarkConfig shrunk = Shrink.apply(
                    ExperimentSpec.withSizedDefaults(own), module.shrinkCaps(), ExperimentSpec.shrinkCaps(module));
            assertEquals(set, shrunk.experiment().get("quiesce/timeout"));
        }
        BenchmarkConfig none = base().build();
        assertSame(none, ExperimentSpec.withSizedDefaults(none));
    }

    @Test
    void benchBasesYcsbShrinksByScaleFactorAlone() throws Exception {
        YcsbModule ycsb = new YcsbModule();
        assertEquals(Map.of(), ycsb.shrinkCaps());
        BenchmarkConfig c = base().scaleFactor(1).build();
        BenchmarkConfig s = Shrink.apply(c, ycsb.shrinkCaps(), ExperimentSpec.shrinkCaps(ycsb));
        assertEquals(0.1, s.scaleFactor());
        assertSame(null, s.experiment());
        assertTrue(s.shrunk().contains("scalefactor 1 -> 0.1"), s.shrunk().toString());
    }
}
