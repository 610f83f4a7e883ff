package org.ivsbench.bench.ycsbivs;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.ConfigException;
import org.ivsbench.config.TargetConfig;
import org.ivsbench.db.ExtendMethod;
import org.ivsbench.random.KeyNames;

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
                "maxfieldlength: '-5' must be at least fieldlength (100)",
                message(MARIADB, Map.of("maxfieldlength", "-5")));
        assertEquals(
                "maxfieldlength: '50' must be at least fieldlength (100)",
                message(MARIADB, Map.of("maxfieldlength", "50")));
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

    /** The module reads its parameters through the config's typed view: the core sections' words for a mistake. */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "recordcount|many|recordcount: 'many' is not an integer",
                "fieldcount|1001|fieldcount: '1001' is too large (at most 1000)",
                "fieldlength|-1|fieldlength: '-1' must be at least 0",
                "scanlength|3000000000|scanlength: '3000000000' is too large (at most 2147483647)",
                "readallfields|yes|readallfields: 'yes' is not true or false",
                "keyorder|sorted|keyorder: 'sorted' is not hashed or ordered",
                "zipfianconstant|NaN|zipfianconstant: 'NaN' is not a number",
                "keys/lenght|32|keys/lenght: unknown element (did you mean 'length'?) (known: displacement, length,"
                        + " prefix, prefixdistribution, sortedness)",
                "recordcounts|5|recordcounts: unknown element (did you mean 'recordcount'?) (known: engine,"
                        + " extendfieldlength, extendlengthdistribution, extendmethod, fieldcount, fieldlength,"
                        + " fieldlengthdistribution, keyorder, keys, maxfieldlength, rangelengthdistribution,"
                        + " readallfields, recordcount, scanlength, sections, table, writeallfields, zipfianconstant)",
            })
    void numbersBooleansAndChoicesReadAsInTheCoreSections(String name, String value, String expected) {
        assertEquals(expected, message(SQLITE, Map.of(name, value)));
    }

    @Test
    void keysSectionErrorsNameTheElementAndValue() {
        Map<String, String> ordered = Map.of("keyorder", "ordered");
        assertEquals(
                "keys/sortedness: '1.5' must be in [0, 1] (0 sorted, 1 random)",
                message(SQLITE, with(ordered, "keys/sortedness", "1.5")));
        assertEquals(
                "keys/sortedness: 'half' is not a number", message(SQLITE, with(ordered, "keys/sortedness", "half")));
        assertEquals(
                "keys/sortedness: '0.2' needs <keyorder>ordered</keyorder>: hashed keys are inserted in no key order"
                        + " to begin with",
                message(SQLITE, Map.of("keys/sortedness", "0.2")));
        assertEquals(
                "keys/sortedness: '0.2' needs recordcount <= 10000000 (the insert order is generated in memory),"
                        + " got 20000000",
                message(SQLITE, with(with(ordered, "keys/sortedness", "0.2"), "recordcount", "20000000")));
        assertEquals(
                "keys/displacement: '0' must be at least 1",
                message(SQLITE, with(with(ordered, "keys/sortedness", "0.2"), "keys/displacement", "0")));
        assertEquals(
                "keys/displacement: '10' needs a <sortedness> to apply to",
                message(SQLITE, Map.of("keys/displacement", "10")));
        assertEquals(
                "keys/prefix: 'tenant:10,user' must be segments name:count separated by commas (name a letter then"
                        + " letters, digits or '_'; count >= 1), e.g. tenant:10,user:100",
                message(SQLITE, Map.of("keys/prefix", "tenant:10,user")));
        assertEquals("keys/prefix", path(SQLITE, Map.of("keys/prefix", "tenant:0")));
        assertEquals(
                "keys/prefix: 'a:1000,b:1001' gives more than 1000000 distinct prefixes",
                message(SQLITE, Map.of("keys/prefix", "a:1000,b:1001")));
        assertEquals("keys/prefix: 'a:2,a:3' names segment a twice", message(SQLITE, Map.of("keys/prefix", "a:2,a:3")));
        assertEquals(
                "keys/prefixdistribution: 'zipfian' needs <prefix> segments to choose from",
                message(SQLITE, Map.of("keys/prefixdistribution", "zipfian")));
        assertEquals(
                "keys/prefixdistribution: 'beta(alpha=-1)': beta parameter alpha=-1 must be > 0",
                message(SQLITE, Map.of("keys/prefix", "t:5", "keys/prefixdistribution", "beta(alpha=-1)")));
        assertEquals(
                "keys/prefixdistribution",
                path(SQLITE, Map.of("keys/prefix", "t:5", "keys/prefixdistribution", "latest")));
        assertEquals("keys/length: '300': must be in [1, 255]", message(SQLITE, Map.of("keys/length", "300")));
        assertEquals(
                "keys/length: 'uniform(min=10, max=300)': max=300 must be <= 255",
                message(SQLITE, Map.of("keys/length", "uniform(min=10, max=300)")));
        assertEquals("keys/length", path(SQLITE, Map.of("keys/length", "normal(mean=)")));
        assertEquals("keys/order", path(SQLITE, Map.of("keys/order", "ordered")));
        assertEquals("keys", path(SQLITE, Map.of("keys", "ordered")));
    }

    @Test
    void withoutAKeysSectionKeysAreYcsbs() throws Exception {
        YcsbIvsParameters hashed = YcsbIvsParameters.from(config(SQLITE, Map.of()));
        YcsbIvsParameters ordered = YcsbIvsParameters.from(config(SQLITE, Map.of("keyorder", "ordered")));
        for (long n = 0; n < 1000; n += 7) {
            assertEquals(KeyNames.key(n, false), hashed.keyName(n));
            assertEquals(KeyNames.key(n, true), ordered.keyName(n));
        }
        assertNull(hashed.keys().sortedness());
    }

    @Test
    void shapedKeysDoNotDependOnTheRunsSeed() throws Exception {
        // An experiment gives each phase its own seed; a key number must still name the loaded record.
        Map<String, String> p = Map.of("keys/prefix", "tenant:10,user:100", "keys/length", "uniform(min=30, max=60)");
        YcsbIvsParameters one = YcsbIvsParameters.from(Fixtures.config(SQLITE, p, 1, 1));
        YcsbIvsParameters other = YcsbIvsParameters.from(Fixtures.config(SQLITE, p, 99, 1));
        for (long n = 0; n < 200; n++) {
            assertEquals(one.keyName(n), other.keyName(n));
        }
    }

    private static Map<String, String> with(Map<String, String> p, String name, String value) {
        Map<String, String> more = new HashMap<>(p);
        more.put(name, value);
        return more;
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
