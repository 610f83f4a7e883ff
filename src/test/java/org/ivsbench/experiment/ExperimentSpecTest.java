package org.ivsbench.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.ivsbench.db.TargetKinds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.ivsbench.bench.BenchmarkModule;
import org.ivsbench.bench.BenchmarkRegistry;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.ConfigException;
import org.ivsbench.config.ConfigLoader;
import org.ivsbench.config.RateSpec;

class ExperimentSpecTest {
    private static Map<String, String> minimal() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("epochs", "5");
        m.put("extend/count", "100");
        m.put("run/count", "200");
        return m;
    }

    @Test
    void defaults() throws Exception {
        ExperimentSpec s = ExperimentSpec.parse(minimal());
        assertEquals(5, s.epochs());
        assertEquals(List.of(Mode.values()), s.modes());
        assertEquals("zipfian", s.extendDistribution());
        assertEquals("uniform", s.runDistribution());
        assertEquals(RateSpec.Kind.UNLIMITED, s.extendRate().kind());
        assertEquals(Map.of("ReadRecord", 100.0), s.runWeights());
        assertEquals(0, s.warmupSeconds());
        assertEquals(List.of(100.0, 0.0, 0.0), s.runPhase(1).weights());
        assertEquals(List.of(0.0, 100.0, 0.0), s.extendPhase(1).weights());
        assertEquals(100, s.extendPhase(1).count());
    }

    @Test
    void allLeaves() throws Exception {
        Map<String, String> m = minimal();
        m.put("modes", "clean, main");
        m.put("extend/distribution", "uniform");
        m.put("extend/rate", "250");
        m.put("run/distribution", "zipfian");
        m.put("run/rate", "unlimited");
        m.put("run/weights", "ReadRecord:50,UpdateRecord:50");
        m.put("warmup", "3");
        ExperimentSpec s = ExperimentSpec.parse(m);
        assertEquals(List.of(Mode.MAIN, Mode.CLEAN), s.modes());
        assertEquals(250.0, s.extendRate().opsPerSecond());
        assertEquals(List.of(50.0, 0.0, 50.0), s.runPhase(1).weights());
        assertEquals(3, s.runPhase(1).warmupSeconds());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "epochs|0|experiment/epochs|'0'",
        "epochs|many|experiment/epochs|'many'",
        "modes|main,dirty|experiment/modes|'dirty'",
        "extend/count|-3|experiment/extend/count|'-3'",
        "extend/distribution|gaussian|experiment/extend/distribution|'gaussian'",
        "extend/rate|fast|experiment/extend/rate|'fast'",
        "run/rate|0|experiment/run/rate|'0'",
        "run/weights|ReadRecord:60|experiment/run/weights|'ReadRecord:60'",
        "run/weights|ScanRecord:100|experiment/run/weights|'ScanRecord:100'",
        "warmup|-1|experiment/warmup|'-1'",
        "clean/method|dumpster|experiment/clean/method|'dumpster'",
        "run/colour|red|experiment/run/colour|unknown",
    })
    void errorsNameTheLeafAndQuoteTheValue(String leaf, String value, String path, String quoted) {
        Map<String, String> m = minimal();
        m.put(leaf, value);
        ConfigException e = assertThrows(ConfigException.class, () -> ExperimentSpec.parse(m));
        assertEquals(path, e.path());
        assertTrue(e.getMessage().contains(quoted), e.getMessage());
    }

    @Test
    void missingCountsAreNamed() {
        Map<String, String> m = minimal();
        m.remove("run/count");
        assertEquals("experiment/run/count", assertThrows(ConfigException.class, () -> ExperimentSpec.parse(m)).path());
    }

    @Test
    void everyPresetLoadsAndParses() throws Exception {
        BenchmarkModule module = BenchmarkRegistry.create("ycsbivs").orElseThrow();
        List<Path> files;
        try (Stream<Path> s = Files.list(Path.of("config/experiments"))) {
            files = s.filter(p -> p.toString().endsWith(".xml")).sorted().toList();
        }
        assertEquals(17, files.size(), files.toString());
        for (Path f : files) {
            BenchmarkConfig c = ConfigLoader.load(f, module.name(), module.supportedTransactionTypes(),
                    module.parameterNames(), module.phaseParameterNames(), TargetKinds::resolve,
                    Map.of("IVS_MARIADB_PASSWORD", "ivs")::get);
            module.validate(c);
            ExperimentSpec spec = ExperimentSpec.parse(c);
            assertNotNull(spec, f.toString());
            assertEquals(List.of(Mode.values()), spec.modes(), f.toString());
            if (!f.getFileName().toString().contains("quick")) {
                boolean heavy = f.getFileName().toString().contains("heavyweight");
                assertEquals(100, spec.epochs(), f.toString());
                assertEquals(heavy ? 100_000 : 10_000, spec.extendCount(), f.toString());
                assertEquals(100_000, spec.runCount(), f.toString());
                assertEquals(heavy ? "10000" : "1000", c.parameters().get("recordcount"), f.toString());
                assertEquals(f.getFileName().toString().contains("zipfian") ? "zipfian" : "uniform",
                        spec.extendDistribution(), f.toString());
                assertEquals(1, c.terminals());
                // The paper's Table 1 and section 4: fields, growth and cap; read phases on uniform keys.
                Map<String, String> p = c.parameters();
                assertEquals("10", p.getOrDefault("fieldcount", "10"), f.toString());
                assertEquals("100", p.get("fieldlength"), f.toString());
                assertEquals("100", p.get("extendfieldlength"), f.toString());
                assertEquals("1600000", p.get("maxfieldlength"), f.toString());
                assertEquals("uniform", spec.runDistribution(), f.toString());
                assertEquals(Map.of("ReadRecord", 100.0), spec.runWeights(), f.toString());
            }
            // The platform the file name promises.
            String name = f.getFileName().toString();
            String platform = name.split("_")[1];
            switch (platform) {
                case "sqlite", "quick" -> assertEquals("SQLITE", c.target().type(), name);
                case "mongodb" -> assertEquals("MONGODB", c.target().type(), name);
                case "mariadb", "myrocks" -> {
                    assertEquals("MARIADB", c.target().type(), name);
                    assertEquals(platform.equals("myrocks") ? "RocksDB" : "InnoDB", c.parameters().get("engine"), name);
                }
                default -> throw new AssertionError("preset name without a known platform: " + name);
            }
        }
    }
}
