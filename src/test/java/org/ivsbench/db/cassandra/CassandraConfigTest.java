package org.ivsbench.db.cassandra;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.config.ConfigException;
import org.ivsbench.config.TargetConfig;
import org.ivsbench.db.CounterKind;
import org.ivsbench.db.TargetException;
import org.ivsbench.db.TargetKinds;
import org.ivsbench.testsupport.RunHarness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The URL, the target options and the config checks; no server needed. */
class CassandraConfigTest {
    @TempDir
    Path dir;

    @Test
    void urlGivesContactPointsKeyspaceAndDatacenter() {
        CassandraUrl u = CassandraUrl.parse("cassandra://10.0.0.1:19042,10.0.0.2/ks_1?dc=dc2");
        assertEquals(
                List.of(
                        InetSocketAddress.createUnresolved("10.0.0.1", 19042),
                        InetSocketAddress.createUnresolved("10.0.0.2", 9042)),
                u.contactPoints());
        assertEquals("ks_1", u.keyspace());
        assertEquals("dc2", u.localDatacenter());
        assertEquals(
                "datacenter1", CassandraUrl.parse("cassandra://[::1]:9142/k").localDatacenter());
        assertEquals(
                InetSocketAddress.createUnresolved("::1", 9142),
                CassandraUrl.parse("cassandra://[::1]:9142/k").contactPoints().get(0));
    }

    @Test
    void badUrlsAreConfigErrorsAtElementUrl() {
        for (String bad : List.of(
                "cassandra://h:9042",
                "cassandra://h/",
                "cassandra://h/1ks",
                "cassandra://h:x/k",
                "cassandra:///k",
                "cassandra://h/k?consistency=ONE",
                "cassandra://h/k-s")) {
            TargetConfig t = new TargetConfig("CASSANDRA", null, bad, null, null, null, false, Map.of());
            ConfigException e = assertThrows(ConfigException.class, () -> TargetKinds.resolve(t), bad);
            assertEquals("url", e.path(), bad);
        }
        TargetConfig jdbc =
                new TargetConfig("CASSANDRA", "x.Driver", "cassandra://h/k", null, null, null, false, Map.of());
        assertEquals(
                "driver",
                assertThrows(ConfigException.class, () -> TargetKinds.resolve(jdbc))
                        .path());
    }

    @Test
    void optionsParseAndRejectWhatTheyDoNotKnow() throws TargetException {
        CassandraOptions o = CassandraOptions.parse(Map.of(
                "readconsistency",
                "quorum",
                "WRITECONSISTENCY",
                "ALL",
                "replicationFactor",
                "3",
                "extendWrite",
                "Conditional",
                "serialConsistency",
                "local_serial",
                "requestTimeoutMs",
                "500"));
        assertEquals(DefaultConsistencyLevel.QUORUM, o.readConsistency());
        assertEquals(DefaultConsistencyLevel.ALL, o.writeConsistency());
        assertEquals(DefaultConsistencyLevel.LOCAL_SERIAL, o.serialConsistency());
        assertEquals(3, o.replicationFactor());
        assertEquals(CassandraOptions.ExtendWrite.CONDITIONAL, o.extendWrite());
        assertEquals(500, o.requestTimeoutMs());
        assertEquals(CassandraOptions.DEFAULTS, CassandraOptions.parse(Map.of()));
        assertTrue(message(Map.of("consistency", "ONE")).startsWith("unknown Cassandra option 'consistency'"));
        assertEquals(
                "bad Cassandra option readConsistency='ANY' (ONE, TWO, THREE, QUORUM, ALL, LOCAL_ONE,"
                        + " LOCAL_QUORUM, EACH_QUORUM)",
                message(Map.of("readConsistency", "ANY")));
        assertEquals(
                "bad Cassandra option replicationFactor='0' (a whole number, 1..100)",
                message(Map.of("replicationFactor", "0")));
        assertEquals(
                "bad Cassandra option extendWrite='lwt' (plain, conditional)", message(Map.of("extendWrite", "lwt")));
    }

    private static String message(Map<String, String> options) {
        return assertThrows(TargetException.class, () -> CassandraOptions.parse(options))
                .getMessage();
    }

    /** The registry asks the kind: Cassandra has no server-side extend, so the config is refused before any run. */
    @Test
    void serverExtendIsRefusedWhenTheConfigIsRead() throws Exception {
        String xml = "<parameters><type>CASSANDRA</type><url>cassandra://127.0.0.1:9042/ivsbench</url>"
                + "<terminals>1</terminals><extendmethod>server</extendmethod>"
                + "<transactiontypes><transactiontype><name>ExtendRecord</name></transactiontype></transactiontypes>"
                + "<works><work><count>1</count><rate>unlimited</rate><weights>100</weights></work></works>"
                + "</parameters>";
        ConfigException e = assertThrows(ConfigException.class, () -> RunHarness.config(dir, xml));
        assertEquals("extendmethod", e.path());
        assertTrue(e.getMessage().contains("not available for type CASSANDRA"), e.getMessage());
    }

    @Test
    void utf8LengthCountsBytesNotCharacters() {
        assertEquals(0, CassandraSession.utf8Length(null));
        assertEquals(3, CassandraSession.utf8Length("abc"));
        assertEquals(2 + 3 + 4, CassandraSession.utf8Length("\u00e9\u20ac\ud83d\ude00"));
    }

    @Test
    void fieldNamesRoundTripAndCounterKinds() {
        assertEquals("field0", Statements.column("FIELD0"));
        assertEquals("FIELD12", Statements.field("field12"));
        assertEquals("other", Statements.field(Statements.column("other")));
        assertEquals(CounterKind.COUNTER, ServerViews.kindOf("coordinator_read.ks.t.count"));
        assertEquals(CounterKind.COUNTER, ServerViews.kindOf("caches.chunks.hit_count"));
        assertEquals(CounterKind.GAUGE, ServerViews.kindOf("caches.chunks.entry_count"));
        assertEquals(CounterKind.GAUGE, ServerViews.kindOf("thread_pools.X.active_tasks_limit"));
        assertEquals(CounterKind.GAUGE, new CassandraKind().defaultCounters().get("clients.connected"));
    }
}
