package org.ivsbench.presets;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every shipped SQLite config, run exactly as shipped (its database file under results/ of the project root). */
// Longer than the suite's 5-minute default (docs/trust.md, "Time limits"): each preset is one CLI run, bounded at
// 600 s by PresetRun.
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class SqlitePresetsTest {
    @TempDir
    Path tmp;

    static Stream<String> files() throws Exception {
        return ShippedConfigs.ofTypes("SQLITE");
    }

    @ParameterizedTest
    @MethodSource("files")
    void runsAsShippedWithShrink(String file) throws Exception {
        ShippedConfigs.runAndCheck(file, "sqlite", null, null, tmp);
    }

    @AfterAll
    static void table() {
        PresetRun.printTable("SQLite");
    }
}
