package org.ivsbench.bench.ycsbivs;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.ivsbench.bench.BenchmarkModule;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.ConfigException;
import org.ivsbench.config.ConfigLoader;
import org.ivsbench.config.PhaseConfig;
import org.ivsbench.config.RampConfig;
import org.ivsbench.db.TargetKinds;
import org.ivsbench.engine.ThinkTimes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The key distribution's ramp, and the shift samples as the module and the engine check them. */
class RampedDistributionTest {
    private static PhaseConfig phase(String from, String to, RampConfig.Shape shape, long every) {
        RampConfig ramp = new RampConfig(shape, every, Double.NaN, List.of(), Map.of("distribution", to));
        return PhaseConfig.builder(0)
                .timeSeconds(10)
                .weights(List.of(100.0))
                .parameters(Map.of("distribution", from))
                .ramp(ramp)
                .build();
    }

    @Test
    void parametersMoveBetweenTheEnds() throws ConfigException {
        RampedDistribution d =
                RampedDistribution.of(phase("zipfian(theta=0.5)", "zipfian(theta=0.9)", RampConfig.Shape.LINEAR, 0));
        assertEquals(0.5, d.at(0).get("theta"));
        assertEquals(0.7, d.at(0.5).get("theta"), 1e-12);
        assertEquals(0.9, d.at(1).get("theta"));
        RampedDistribution hot = RampedDistribution.of(
                phase("hotspot(set=0.2, ops=0.8)", "hotspot(set=0.1, ops=0.9)", RampConfig.Shape.LINEAR, 0));
        assertEquals(0.15, hot.at(0.5).get("set"), 1e-12);
        assertEquals(0.85, hot.at(0.5).get("ops"), 1e-12);
        assertNull(RampedDistribution.of(PhaseConfig.builder(0).timeSeconds(1).build()));
    }

    @Test
    void aLinearRampMovesOncePerSecondAndAStepRampPerStep() {
        RampConfig linear = new RampConfig(RampConfig.Shape.LINEAR, 0, Double.NaN, List.of(), Map.of());
        assertEquals(0, RampedDistribution.slot(linear, -0.5, 10));
        assertEquals(3, RampedDistribution.slot(linear, 3.9, 10));
        assertEquals(10, RampedDistribution.slot(linear, 12, 10));
        assertEquals(0.3, RampedDistribution.fraction(linear, 3, 10), 1e-12);
        RampConfig step = new RampConfig(RampConfig.Shape.STEP, 2, Double.NaN, List.of(), Map.of());
        assertEquals(1, RampedDistribution.slot(step, 3.9, 10));
        assertEquals(4, RampedDistribution.slot(step, 9.9, 10));
        assertEquals(4, RampedDistribution.slot(step, 30, 10));
        assertEquals(0.25, RampedDistribution.fraction(step, 1, 10), 1e-12);
    }

    @Test
    void badTargetsAreConfigErrorsNamingElementAndValue() {
        ConfigException other = assertThrows(
                ConfigException.class,
                () -> RampedDistribution.of(phase("zipfian(theta=0.5)", "uniform", RampConfig.Shape.LINEAR, 0)));
        assertEquals("works/work[1]/ramp/distribution", other.path());
        assertTrue(other.getMessage().contains("'uniform' is not zipfian"), other.getMessage());
        ConfigException bad = assertThrows(
                ConfigException.class,
                () -> RampedDistribution.of(phase("zipfian", "zipfian(theta=1.5)", RampConfig.Shape.LINEAR, 0)));
        assertTrue(bad.getMessage().contains("'zipfian(theta=1.5)'"), bad.getMessage());
        ConfigException none = assertThrows(
                ConfigException.class,
                () -> RampedDistribution.of(phase("uniform", "uniform", RampConfig.Shape.LINEAR, 0)));
        assertTrue(none.getMessage().contains("no parameters to ramp"), none.getMessage());
    }

    @Test
    void theSamplesConfigureWhatTheySay() throws ConfigException {
        BenchmarkModule module = new YcsbIvsModule();
        BenchmarkConfig ramp = load(module, "ramp_rate_and_mix.xml");
        PhaseConfig up = ramp.phases().get(0);
        assertEquals(300, up.ramp().rate());
        assertEquals(List.of(10.0, 90.0), up.ramp().weights());
        assertEquals(0.99, RampedDistribution.of(up).at(1).get("theta"));
        assertEquals(RampConfig.Shape.STEP, ramp.phases().get(1).ramp().shape());
        BenchmarkConfig semi = load(module, "semi_open_loop.xml");
        assertEquals("exponential(mean=20)", semi.phases().get(0).thinkTimeDistribution());
        ThinkTimes.validate(semi.phases());
        PhaseConfig wrong = semi.phases().get(0).toBuilder()
                .thinkTimeDistribution("beta(alpha=-1)")
                .build();
        ConfigException e = assertThrows(ConfigException.class, () -> ThinkTimes.validate(List.of(wrong)));
        assertEquals("works/work[1]/thinkTime", e.path());
        assertTrue(e.getMessage().contains("'beta(alpha=-1)'"), e.getMessage());
    }

    private static BenchmarkConfig load(BenchmarkModule module, String sample) throws ConfigException {
        BenchmarkConfig config = ConfigLoader.load(
                Path.of("config/workloads", sample),
                "ycsbivs",
                module.supportedTransactionTypes(),
                module.parameterNames(),
                module.phaseParameterNames(),
                TargetKinds::resolve,
                Map.<String, String>of()::get);
        module.validate(config);
        return config;
    }
}
