package org.ivsbench.bench.ycsbivs;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import org.ivsbench.bench.LoadReport;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.db.Target;
import org.ivsbench.db.Targets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The same seed loads the same table whatever the number of loader threads. */
class LoaderIntegrationTest {

    static List<String> targets() {
        return Fixtures.TARGETS;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void sameSeedSameTableWithOneOrThreeThreads(String targetName) throws Exception {
        Map<String, String> p = Fixtures.params(targetName, "loaded", Map.of("recordcount", "2500"));
        String one = load(targetName, p, 99, 1);
        String three = load(targetName, p, 99, 3);
        String otherSeed = load(targetName, p, 100, 3);
        assertEquals(one, three);
        assertNotEquals(one, otherSeed);
    }

    private static String load(String targetName, Map<String, String> p, long seed, int threads) throws Exception {
        BenchmarkConfig config = Fixtures.config(Fixtures.targetConfig(targetName), p, seed, threads);
        try (Target target = Targets.open(config.target())) {
            YcsbIvsModule module = new YcsbIvsModule();
            module.create(config, target);
            AtomicLong lastRecords = new AtomicLong();
            LoadReport report = module.load(config, target, (records, bytes) -> {
                assertTrue(records >= lastRecords.get(), "progress went backwards");
                lastRecords.set(records);
                assertEquals(records * 1000, bytes);
            });
            assertEquals(2500, report.records());
            assertEquals(2_500_000, report.bytes());
            assertEquals(2500, lastRecords.get());
            assertEquals(2500, target.countRecords("loaded"));
            String sum = Fixtures.checksum(target, "loaded");
            module.clear(config, target);
            return sum;
        }
    }
}
