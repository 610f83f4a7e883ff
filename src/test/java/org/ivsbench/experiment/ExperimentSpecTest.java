package org.ivsbench.experiment;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import org.ivsbench.bench.BenchmarkModule;
import org.ivsbench.bench.BenchmarkRegistry;
import org.ivsbench.bench.ExperimentSupport;
import org.ivsbench.bench.ForwardingModule;
import org.ivsbench.bench.ycsbivs.YcsbIvsExperiment;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.ConfigException;
import org.ivsbench.config.ConfigLoader;
import org.ivsbench.config.RateSpec;
import org.ivsbench.db.TargetKinds;
import org.ivsbench.testsupport.RunHarness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ExperimentSpecTest {
    @TempDir
    Path tmp;

    /** The flattened section parsed with ycsbivs's support against a small ycsbivs config. */
    private ExperimentSpec parse(Map<String, String> section) throws Exception {
        BenchmarkModule module = RunHarness.module();
        BenchmarkConfig base = RunHarness.config(
                tmp,
                "<parameters><type>SQLITE</type><url>jdbc:sqlite:"
                        + tmp.resolve("s.db") + "</url><recordcount>10</recordcount>"
                        + "<experiment><epochs>1</epochs></experiment></parameters>");
        ExperimentSupport support = module.experiment().orElseThrow();
        return ExperimentSpec.parse(section, support, base);
    }

    private static YcsbIvsExperiment ycsbivs(ExperimentSpec spec) {
        return (YcsbIvsExperiment) spec.workload();
    }

    private static Map<String, String> minimal() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("epochs", "5");
        m.put("extend/count", "100");
        m.put("run/count", "200");
        return m;
    }

    @Test
    void defaults() throws Exception {
        ExperimentSpec s = parse(minimal());
        assertEquals(5, s.epochs());
        assertEquals(Mode.PAPER, s.modes());
        assertEquals(0, s.warmupSeconds());
        assertEquals(ExperimentSpec.CleanMethod.LOGICAL, s.cleanMethod());
        YcsbIvsExperiment w = ycsbivs(s);
        assertEquals("zipfian", w.extendDistribution());
        assertEquals("uniform", w.runDistribution());
        assertEquals(RateSpec.Kind.UNLIMITED, w.extendRate().kind());
        assertEquals(Map.of("ReadRecord", 100.0), w.runWeights());
        assertEquals(100, w.extendCount());
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
        ExperimentSpec s = parse(m);
        assertEquals(List.of(Mode.MAIN, Mode.CLEAN), s.modes());
        assertEquals(3, s.warmupSeconds());
        assertEquals(250.0, ycsbivs(s).extendRate().opsPerSecond());
        assertEquals(
                Map.of("ReadRecord", 50.0, "UpdateRecord", 50.0), ycsbivs(s).runWeights());
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
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
        ConfigException e = assertThrows(ConfigException.class, () -> parse(m));
        assertEquals(path, e.path());
        assertTrue(e.getMessage().contains(quoted), e.getMessage());
    }

    @Test
    void quiesceTimeoutDefaultsToSixtySecondsAndZeroDisablesIt() throws Exception {
        ExperimentSpec d = parse(minimal());
        assertEquals(60, d.quiesceTimeoutSeconds());
        assertTrue(!d.describe().containsKey("quiesceTimeoutSeconds"), "the default keeps older descriptions");
        Map<String, String> m = minimal();
        m.put("quiesce/timeout", "0");
        ExperimentSpec off = parse(m);
        assertEquals(0, off.quiesceTimeoutSeconds());
        assertEquals(0L, off.describe().get("quiesceTimeoutSeconds"));
        for (String bad : List.of("-1", "soon", "86401")) {
            m.put("quiesce/timeout", bad);
            ConfigException e = assertThrows(ConfigException.class, () -> parse(m));
            assertEquals("experiment/quiesce/timeout", e.path());
            assertTrue(e.getMessage().contains("'" + bad + "'"), e.getMessage());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"epochs", "extend/count", "run/count"})
    void missingLeavesAreNamed(String leaf) {
        Map<String, String> m = minimal();
        m.remove(leaf);
        assertEquals(
                "experiment/" + leaf + ": missing: the experiment needs it",
                assertThrows(ConfigException.class, () -> parse(m)).getMessage());
    }

    @Test
    void unknownLeavesListTheGenericAndTheBenchmarksLeaves() {
        Map<String, String> m = minimal();
        m.put("colour", "red");
        ConfigException e = assertThrows(ConfigException.class, () -> parse(m));
        assertEquals(
                "experiment/colour: unknown element (known: baselines, clean/method, epochs, extend/count,"
                        + " extend/distribution, extend/rate, fresh/command, fresh/timeout, fresh/url,"
                        + " maintained/command, maintained/timeout, maintained/url, modes, quiesce/timeout,"
                        + " run/count, run/distribution, run/rate, run/weights, slices, trials, warmup)",
                e.getMessage());
    }

    /** The experiment's leaves get the core sections' "did you mean" for a near miss, as any element does. */
    @Test
    void aMisspeltLeafIsNamedWithItsLikelyMeaning() {
        Map<String, String> m = minimal();
        m.put("run/cuont", "5");
        ConfigException e = assertThrows(ConfigException.class, () -> parse(m));
        assertEquals("experiment/run/cuont", e.path());
        assertTrue(e.getMessage().contains("unknown element (did you mean 'run/count'?)"), e.getMessage());
    }

    /** Whole numbers read as the core sections read them: the same words for the same mistake. */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "epochs|many|experiment/epochs: 'many' is not an integer",
                "epochs|0|experiment/epochs: '0' must be at least 1",
                "warmup|-1|experiment/warmup: '-1' must be at least 0",
                "quiesce/timeout|86401|experiment/quiesce/timeout: '86401' is too large (at most 86400)",
                "trials|1001|experiment/trials: '1001' is too large (at most 1000)",
                "extend/count|1.5|experiment/extend/count: '1.5' is not an integer",
                "clean/method|dumpster|experiment/clean/method: 'dumpster' is not logical or native",
                "baselines|guessed|experiment/baselines: 'guessed' is not measured or computed",
                "slices|0|experiment/slices: '0' must be at least 1",
                "slices|101|experiment/slices: '101' is too large (at most 100)",
                "slices|2.5|experiment/slices: '2.5' is not an integer",
            })
    void numbersAndChoicesReadAsInTheCoreSections(String leaf, String value, String message) {
        Map<String, String> m = minimal();
        m.put(leaf, value);
        assertEquals(
                message, assertThrows(ConfigException.class, () -> parse(m)).getMessage());
    }

    /** main-maintained and experiment/maintained come together; neither is in the default modes. */
    @Test
    void theMaintainedModeNeedsItsCopyCommandAndOnlyItDoes() throws Exception {
        Map<String, String> m = minimal();
        assertTrue(!parse(m).modes().contains(Mode.MAINTAINED), "main-maintained is not a default mode");
        m.put("modes", "main,main-maintained");
        assertTrue(assertThrows(ConfigException.class, () -> parse(m))
                .getMessage()
                .startsWith("experiment/maintained/command: missing: mode main-maintained reads a physical copy"));
        m.put("maintained/command", "scripts/mariadb.sh restart-copy");
        m.put("maintained/url", "jdbc:mariadb://127.0.0.1:3999/ivsbench");
        assertEquals(List.of(Mode.MAIN, Mode.MAINTAINED), parse(m).modes());
        assertEquals(
                "scripts/mariadb.sh restart-copy", parse(m).maintainedInstance().command());
        m.put("modes", "main,clean");
        assertEquals(
                "experiment/maintained/command: set, but modes do not include main-maintained, which alone uses it",
                assertThrows(ConfigException.class, () -> parse(m)).getMessage());
    }

    /** Slices of a run phase: at most one per operation, recorded in experiment.json only when set. */
    @Test
    void slicesOfTheRunPhase() throws Exception {
        Map<String, String> m = minimal();
        assertEquals(1, parse(m).slices());
        assertTrue(!parse(m).describe().containsKey("slices"), "slices described when not set");
        m.put("slices", "8");
        assertEquals(8, parse(m).slices());
        assertEquals(8, parse(m).describe().get("slices"));
        m.put("run/count", "5");
        assertEquals(
                "experiment/slices: '8' slices of a run phase of 5 operations: at most 5",
                assertThrows(ConfigException.class, () -> parse(m)).getMessage());
    }

    /** A benchmark that offers no experiment: its config's {@code <experiment>} is a config error. */
    @Test
    void anExperimentForABenchmarkWithoutTheCapabilityIsAConfigError() throws Exception {
        Path file = tmp.resolve("no-capability.xml");
        Files.writeString(
                file,
                "<parameters><type>SQLITE</type><url>jdbc:sqlite:" + tmp.resolve("n.db")
                        + "</url><experiment><epochs>1</epochs></experiment></parameters>");
        BenchmarkModule plain = new WithoutExperiment(RunHarness.module());
        BenchmarkConfig config = ConfigLoader.load(
                file,
                plain.name(),
                plain.supportedTransactionTypes(),
                plain.parameterNames(),
                plain.phaseParameterNames(),
                TargetKinds::resolve);
        ConfigException e = assertThrows(ConfigException.class, () -> ExperimentSpec.parse(config, plain));
        assertEquals("experiment", e.path());
        assertTrue(e.getMessage().contains("offers no experiment"), e.getMessage());
        // Without the section the same benchmark parses to no experiment at all.
        Files.writeString(
                file,
                Files.readString(file)
                        .replace(
                                "<experiment><epochs>1</epochs></experiment>",
                                "<transactiontypes><transactiontype><name>ReadRecord</name></transactiontype></transactiontypes>"
                                        + "<works><work><count>1</count></work></works>"));
        assertEquals(
                null,
                ExperimentSpec.parse(
                        ConfigLoader.load(
                                file,
                                plain.name(),
                                plain.supportedTransactionTypes(),
                                plain.parameterNames(),
                                plain.phaseParameterNames(),
                                TargetKinds::resolve),
                        plain));
    }

    /** ycsbivs with its experiment capability taken away. */
    private static final class WithoutExperiment extends ForwardingModule {
        WithoutExperiment(BenchmarkModule inner) {
            super(inner);
        }

        @Override
        public String name() {
            return "plain";
        }

        @Override
        public Optional<ExperimentSupport> experiment() {
            return Optional.empty();
        }
    }

    /** A shipped experiment config, loaded and validated as the CLI does (passwords from a fixed environment). */
    private static BenchmarkConfig loadPreset(BenchmarkModule module, Path f) throws Exception {
        BenchmarkConfig c = ConfigLoader.load(
                f,
                module.name(),
                module.supportedTransactionTypes(),
                module.parameterNames(),
                module.phaseParameterNames(),
                TargetKinds::resolve,
                Map.of("IVS_MARIADB_PASSWORD", "ivs", "IVS_POSTGRES_PASSWORD", "ivs")::get);
        module.validate(c);
        return c;
    }

    /** docs/repro's settings: each config loads, parses and is the setting its folder's name says. */
    @Test
    void everyReproConfigLoadsAndParses() throws Exception {
        BenchmarkModule module = BenchmarkRegistry.create("ycsbivs").orElseThrow();
        List<Path> files;
        try (Stream<Path> s = Files.list(Path.of("docs/repro"))) {
            files = s.map(d -> d.resolve("config.xml"))
                    .filter(Files::isRegularFile)
                    .sorted()
                    .toList();
        }
        assertTrue(files.size() >= 8, files.toString());
        for (Path f : files) {
            String setting = f.getParent().getFileName().toString();
            BenchmarkConfig c = loadPreset(module, f);
            ExperimentSpec spec = ExperimentSpec.parse(c, module);
            assertNotNull(spec, setting);
            YcsbIvsExperiment w = ycsbivs(spec);
            assertEquals(
                    setting.startsWith("myrocks") ? "ROCKSDB" : "INNODB",
                    c.parameters().get("engine").toUpperCase(Locale.ROOT),
                    setting);
            assertEquals(setting.contains("zipfian") ? "zipfian" : "uniform", w.extendDistribution(), setting);
            assertEquals(setting.contains("heavyweight") ? 100_000 : 10_000, w.extendCount(), setting);
            assertEquals(
                    setting.contains("heavyweight") ? "10000" : "1000",
                    c.parameters().get("recordcount"),
                    setting);
            assertEquals(
                    setting.contains("mixed")
                            ? Map.of("ReadRecord", 50.0, "UpdateRecord", 50.0)
                            : Map.of("ReadRecord", 100.0),
                    w.runWeights(),
                    setting);
        }
    }

    @Test
    void everyPresetLoadsAndParses() throws Exception {
        BenchmarkModule module = BenchmarkRegistry.create("ycsbivs").orElseThrow();
        List<Path> files;
        try (Stream<Path> s = Files.list(Path.of("config/experiments"))) {
            files = s.filter(p -> p.toString().endsWith(".xml")).sorted().toList();
        }
        // 21 read-only presets, 10 mixed READ/UPDATE ones, 3 scaled reproductions, 10 baseline volume sweeps.
        assertEquals(44, files.size(), files.toString());
        for (Path f : files) {
            BenchmarkConfig c = loadPreset(module, f);
            ExperimentSpec spec = ExperimentSpec.parse(c, module);
            assertNotNull(spec, f.toString());
            // The presets carry no <works> or <transactiontypes>: the experiment builds every phase.
            assertTrue(c.phases().isEmpty() && c.transactionTypes().isEmpty(), f.toString());
            YcsbIvsExperiment w = ycsbivs(spec);
            String fileName = f.getFileName().toString();
            if (fileName.contains("_baselines_")) {
                // The baseline volume sweeps: both baselines at computed volumes, no extend phase.
                assertEquals(List.of(Mode.AVERAGE_BASELINE, Mode.SPREAD_BASELINE), spec.modes(), fileName);
                assertEquals(ExperimentSpec.BaselineVolumes.COMPUTED, spec.baselineVolumes(), fileName);
            } else {
                assertEquals(Mode.PAPER, spec.modes(), fileName);
                assertEquals(ExperimentSpec.BaselineVolumes.MEASURED, spec.baselineVolumes(), fileName);
            }
            boolean mixed = fileName.contains("_mixed");
            if (fileName.contains("scaled")) {
                // The scaled reproduction: the lightweight shape with fewer epochs and reads.
                assertEquals(20, spec.epochs(), fileName);
                assertEquals("1000", c.parameters().get("recordcount"), fileName);
                assertEquals("zipfian", w.extendDistribution(), fileName);
                assertEquals(Map.of("ReadRecord", 100.0), w.runWeights(), fileName);
            } else if (!fileName.contains("quick")) {
                boolean heavy = f.getFileName().toString().contains("heavyweight");
                assertEquals(100, spec.epochs(), f.toString());
                assertEquals(heavy ? 100_000 : 10_000, w.extendCount(), f.toString());
                assertEquals(100_000, w.runCount(), f.toString());
                assertEquals(heavy ? "10000" : "1000", c.parameters().get("recordcount"), f.toString());
                assertEquals(
                        f.getFileName().toString().contains("zipfian") ? "zipfian" : "uniform",
                        w.extendDistribution(),
                        f.toString());
                assertEquals(1, c.terminals());
                // The paper's Table 1 and section 4: fields, growth and cap; read phases on uniform keys.
                Map<String, String> p = c.parameters();
                assertEquals("10", p.getOrDefault("fieldcount", "10"), f.toString());
                assertEquals("100", p.get("fieldlength"), f.toString());
                assertEquals("100", p.get("extendfieldlength"), f.toString());
                assertEquals("1600000", p.get("maxfieldlength"), f.toString());
                assertEquals("uniform", w.runDistribution(), f.toString());
                assertEquals(
                        mixed ? Map.of("ReadRecord", 50.0, "UpdateRecord", 50.0) : Map.of("ReadRecord", 100.0),
                        w.runWeights(),
                        f.toString());
                // Fig 16 is a mean over 5 trials (MyRocks, uniform, mixed); every other preset runs once.
                assertEquals(
                        fileName.equals("ycsbivs_myrocks_heavyweight_uniform_mixed.xml") ? 5 : 1,
                        Trials.of(c.experiment()),
                        fileName);
            }
            // The platform the file name promises.
            String name = f.getFileName().toString();
            String platform = name.contains("scaled") ? name.split("[_.]")[2] : name.split("_")[1];
            switch (platform) {
                case "sqlite", "quick" -> assertEquals("SQLITE", c.target().type(), name);
                case "mongodb" -> assertEquals("MONGODB", c.target().type(), name);
                case "postgres" -> {
                    assertEquals("POSTGRESQL", c.target().type(), name);
                    // The paper's conditions where the scripts can start the server: a fresh instance, native dumps.
                    assertNotNull(spec.freshInstance(), name);
                    assertEquals(ExperimentSpec.CleanMethod.NATIVE, spec.cleanMethod(), name);
                }
                case "mariadb", "myrocks" -> {
                    assertEquals("MARIADB", c.target().type(), name);
                    assertNotNull(spec.freshInstance(), name);
                    assertEquals(ExperimentSpec.CleanMethod.NATIVE, spec.cleanMethod(), name);
                    assertEquals(
                            platform.equals("myrocks") ? "RocksDB" : "InnoDB",
                            c.parameters().get("engine"),
                            name);
                }
                default -> throw new AssertionError("preset name without a known platform: " + name);
            }
        }
    }
}
