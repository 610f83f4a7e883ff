package org.ivsbench.bench.ycsbivs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.ConfigException;
import org.ivsbench.config.ConfigLoader;
import org.ivsbench.config.PhaseConfig;
import org.ivsbench.db.TargetKinds;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The samples in config/workloads/ pass the module's own validation and configure what they say. */
class WorkloadSamplesTest {
    private static final Path DIR = Path.of("config/workloads");

    static Stream<Path> samples() throws IOException {
        try (Stream<Path> files = Files.list(DIR)) {
            return files.filter(f -> f.toString().endsWith(".xml")).sorted().toList().stream();
        }
    }

    private static BenchmarkConfig load(Path file) throws ConfigException {
        YcsbIvsModule module = new YcsbIvsModule();
        BenchmarkConfig config = ConfigLoader.load(
                file,
                "ycsbivs",
                module.supportedTransactionTypes(),
                module.parameterNames(),
                module.phaseParameterNames(),
                TargetKinds::resolve,
                Map.<String, String>of()::get);
        module.validate(config);
        return config;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("samples")
    void validates(Path file) throws ConfigException {
        assertTrue(load(file).phases().size() >= 1);
    }

    @Test
    void eachCapabilityHasItsSample() throws ConfigException {
        PhaseConfig mixed =
                load(DIR.resolve("per_operation_distributions.xml")).phases().get(0);
        assertEquals(
                List.of("ExtendRecord", "ReadRecord"),
                List.copyOf(YcsbIvsParameters.distributions(mixed).keySet()));
        assertEquals(
                "zipfian",
                YcsbIvsParameters.distributions(mixed).get("ExtendRecord").name());
        YcsbIvsParameters sizes = YcsbIvsParameters.from(load(DIR.resolve("value_size_distributions.xml")));
        assertEquals(1000, sizes.fieldLengths().max());
        assertEquals(505, sizes.fieldLengths().mean(), 5);
        assertEquals(100, sizes.extendLengths().mean(), 1);
        PhaseConfig middle =
                load(DIR.resolve("key_distribution_normal.xml")).phases().get(0);
        assertEquals(0.05, YcsbIvsParameters.distribution(middle).get("stddev"));
        KeysSection composite =
                YcsbIvsParameters.from(load(DIR.resolve("keys_composite.xml"))).keys();
        assertEquals(1000, composite.shape().prefixCount());
        assertEquals(
                0.2,
                YcsbIvsParameters.from(load(DIR.resolve("keys_sortedness.xml")))
                        .keys()
                        .sortedness());
    }
}
