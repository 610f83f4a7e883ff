package org.ivsbench.bench.ycsb;

import java.util.Map;

import org.junit.jupiter.api.Test;

import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.ConfigException;
import org.ivsbench.config.TargetConfig;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** ycsb's parameters, read through the config's typed view: BenchBase's defaults and the core sections' errors. */
class YcsbParametersTest {
    private static final TargetConfig SQLITE =
            new TargetConfig("SQLITE", null, "jdbc:sqlite:x.db", null, null, null, false, Map.of());

    private static YcsbParameters from(Map<String, String> p) throws ConfigException {
        return YcsbParameters.from(
                BenchmarkConfig.builder(SQLITE).scaleFactor(2).parameters(p).build());
    }

    private static String message(Map<String, String> p) {
        return assertThrows(ConfigException.class, () -> from(p)).getMessage();
    }

    @Test
    void defaultsAreBenchBases() throws Exception {
        YcsbParameters p = from(Map.of());
        assertEquals(2000, p.recordCount());
        assertEquals(100, p.fieldSize());
        assertEquals(0.99, p.skewFactor());
        assertFalse(p.fieldSizeClamped());
    }

    @Test
    void aFieldSizeAboveTheColumnWidthIsClampedAndSaidSo() throws Exception {
        YcsbParameters p = from(Map.of("fieldSize", "500", "skewFactor", "0.5"));
        assertEquals(100, p.fieldSize());
        assertTrue(p.fieldSizeClamped());
        assertEquals(0.5, p.skewFactor());
    }

    @Test
    void errorsNameTheElementAndQuoteTheValue() {
        assertEquals("fieldSize: 'big' is not an integer", message(Map.of("fieldSize", "big")));
        assertEquals("fieldSize: '0' must be at least 1", message(Map.of("fieldSize", "0")));
        assertEquals("skewFactor: 'NaN' is not a number", message(Map.of("skewFactor", "NaN")));
        assertEquals(
                "skewFactor: '1' must be > 0 and < 1 (the Zipfian constant of the key chooser)",
                message(Map.of("skewFactor", "1")));
    }
}
