package org.ivsbench.bench.ycsbivs;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.ConfigException;
import org.ivsbench.config.TargetConfig;
import org.ivsbench.db.ExtendMethod;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class YcsbIvsParametersTest {
    private static final TargetConfig MARIADB =
            new TargetConfig("MARIADB", null, "jdbc:mariadb://h/db", null, null, null, false, Map.of());
    private static final TargetConfig SQLITE =
            new TargetConfig("SQLITE", null, "jdbc:sqlite:x.db", null, null, null, false, Map.of());

    private static BenchmarkConfig config(TargetConfig target, Map<String, String> p) {
        return Fixtures.config(target, p, 1, 1);
    }

    @Test
    void defaultsAreThePapers() throws Exception {
        YcsbIvsParameters p = YcsbIvsParameters.from(config(MARIADB, Map.of()));
        assertEquals(1000, p.recordCount());
        assertEquals(10, p.fieldCount());
        assertEquals(100, p.fieldLength());
        assertEquals(100, p.extendFieldLength());
        assertEquals(1_600_000, p.maxFieldLength());
        assertEquals(ExtendMethod.CLIENT_PLAIN, p.extendMethod(), "one terminal: the paper's plain read and replace");
        assertEquals("InnoDB", p.engine());
        assertEquals("usertable", p.table());
        assertEquals(List.of("FIELD0", "FIELD1"), p.fieldNames().subList(0, 2));
        assertNull(YcsbIvsParameters.from(config(SQLITE, Map.of())).engine());
    }

    @Test
    void clientExtendsAreLockedOnlyWhenSeveralTerminalsRun() throws Exception {
        assertEquals(ExtendMethod.CLIENT_PLAIN, YcsbIvsParameters.extendMethod("client", 1));
        assertEquals(ExtendMethod.CLIENT, YcsbIvsParameters.extendMethod("client", 2));
        assertEquals(ExtendMethod.CLIENT_PLAIN, YcsbIvsParameters.extendMethod(" Client-Plain ", 8));
        assertEquals(ExtendMethod.CLIENT, YcsbIvsParameters.extendMethod("client-locked", 1));
        assertEquals(ExtendMethod.SERVER, YcsbIvsParameters.extendMethod("server", 1));
        assertEquals(ExtendMethod.CLIENT_PLAIN, YcsbIvsParameters.extendMethod(null, 1));
    }

    @Test
    void errorsNameTheElementAndValue() {
        assertEquals(
                "maxfieldlength: '-5' must be >= fieldlength (100)", message(MARIADB, Map.of("maxfieldlength", "-5")));
        assertEquals(
                "maxfieldlength: '50' must be >= fieldlength (100)", message(MARIADB, Map.of("maxfieldlength", "50")));
        assertEquals(
                "engine: 'RocksDB' does not apply to type SQLITE (it has no choice of storage engine); remove it",
                message(SQLITE, Map.of("engine", "RocksDB")));
        assertEquals("extendmethod", path(MARIADB, Map.of("extendmethod", "both")));
        assertEquals("zipfianconstant", path(MARIADB, Map.of("zipfianconstant", "0.5")));
        assertEquals("table", path(MARIADB, Map.of("table", "user table")));
        assertEquals("fieldlengthdistribution", path(MARIADB, Map.of("fieldlengthdistribution", "gaussian")));
        assertEquals(
                "fieldlengthdistribution: 'normal(mean=)': parameter mean needs a decimal number, got ''",
                message(MARIADB, Map.of("fieldlengthdistribution", "normal(mean=)")));
        assertEquals(
                "extendlengthdistribution: 'uniform(min=0)': uniform parameter min=0 must be in [1, 2147483647]",
                message(MARIADB, Map.of("extendlengthdistribution", "uniform(min=0)")));
        assertEquals(
                "fieldlengthdistribution: 'uniform(max=2000000)': max=2000000 must be <= 1600000",
                message(MARIADB, Map.of("fieldlengthdistribution", "uniform(max=2000000)")));
        assertEquals("recordcount", path(MARIADB, Map.of("recordcount", "ten")));
        assertEquals("nosuch", path(MARIADB, Map.of("nosuch", "1")));
        assertEquals("readallfields", path(MARIADB, Map.of("readallfields", "yes")));
    }

    @Test
    void phaseDistributionIsValidated() {
        BenchmarkConfig bad = Fixtures.config(MARIADB, Map.of(), 1, 1, Fixtures.phase("gaussian", 1));
        ConfigException e = assertThrows(ConfigException.class, () -> new YcsbIvsModule().validate(bad));
        assertEquals("works/work[1]/distribution", e.path());
    }

    private static String message(TargetConfig t, Map<String, String> p) {
        return assertThrows(ConfigException.class, () -> YcsbIvsParameters.from(config(t, p)))
                .getMessage();
    }

    private static String path(TargetConfig t, Map<String, String> p) {
        return assertThrows(ConfigException.class, () -> YcsbIvsParameters.from(config(t, p)))
                .path();
    }
}
