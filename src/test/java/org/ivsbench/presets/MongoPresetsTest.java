package org.ivsbench.presets;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import org.ivsbench.testsupport.TestServers;

/**
 * Every shipped config for this server, run from the project root as its header says, on the tests' private server
 * (only the primary url and the password variable set), with --shrink; a fresh-instance preset's second server is
 * stopped afterwards with its header's own command.
 */
// Longer than the suite's 5-minute default (docs/trust.md, "Time limits"): each preset is one CLI run, bounded at
// 600 s by PresetRun.
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class MongoPresetsTest {
    @TempDir
    Path tmp;

    static Stream<String> files() throws Exception {
        return ShippedConfigs.ofTypes("MONGODB");
    }

    @ParameterizedTest
    @MethodSource("files")
    void runsAsShippedWithShrink(String file) throws Exception {
        ShippedConfigs.runAndCheck(file, "mongo", TestServers.mongoUrl(), null, tmp);
    }

    @AfterAll
    static void table() {
        PresetRun.printTable("mongo");
    }
}
