package org.ivsbench.monitor;

import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.MonitorConfig;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetKind;
import org.ivsbench.db.TargetKinds;
import org.ivsbench.testsupport.RunHarness;
import org.ivsbench.testsupport.TestServers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** When the in-process monitor would present the client's host as the database's. */
class RunMonitorTest {
    private static final MonitorConfig NO_AGENT = MonitorConfig.defaults();
    private static final TargetKind MARIADB = TargetKinds.of("MARIADB");
    private static final TargetKind MONGODB = TargetKinds.of("MONGODB");
    private static final TargetKind SQLITE = TargetKinds.of("SQLITE");

    @Test
    void portOfUrls() {
        assertEquals(23306, RunMonitor.portOf("jdbc:mariadb://127.0.0.1:23306/ivsbench", 3306));
        assertEquals(3306, RunMonitor.portOf("jdbc:mariadb://localhost/ivsbench?x=1", 3306));
        assertEquals(3307, RunMonitor.portOf("jdbc:mariadb://u:p@[::1]:3307/ivs", 3306));
        assertEquals(3306, RunMonitor.portOf("jdbc:mariadb://[::1]/ivs", 3306));
        assertEquals(3310, RunMonitor.portOf("jdbc:mariadb://address=(host=localhost)(port=3310)/ivs", 3306));
        assertEquals(37017, RunMonitor.portOf("mongodb://127.0.0.1:37017,127.0.0.1:37018/ivsbench", 27017));
        assertEquals(27017, RunMonitor.portOf("mongodb://localhost/ivsbench", 27017));
    }

    /** On the private MariaDB (not on the default port): proc.* watch the server the URL's port leads to. */
    @Test
    void theLocalServerIsFoundByItsPort(@TempDir Path dir) throws Exception {
        BenchmarkConfig config = RunHarness.config(
                dir,
                "<parameters>"
                        + RunHarness.mariadbConnection()
                        + "<transactiontypes><transactiontype><name>ReadRecord</name></transactiontype></transactiontypes>"
                        + "<works><work><count>1</count><rate>unlimited</rate><weights>100</weights></work></works>"
                        + "</parameters>");
        String pidFile = TestServers.mariadbPidFile();
        long expected = Long.parseLong(Files.readString(Path.of(pidFile)).trim());
        assertEquals(
                OptionalLong.of(expected),
                RunMonitor.serverProcess(config, MARIADB).locate());
    }

    @Test
    void localUrlsAreRecognised() {
        for (String url : new String[] {
            "jdbc:mariadb://localhost:3306/ivs",
            "jdbc:mariadb://127.0.0.1/ivs?useSsl=false",
            "jdbc:mysql://127.0.1.1:3307/x",
            "jdbc:mariadb://[::1]:3306/ivs",
            "JDBC:MARIADB://LOCALHOST/ivs",
            "jdbc:mariadb://user:pw@localhost/ivs",
            "jdbc:mariadb:///ivs",
            "jdbc:mariadb://dbhost/ivs?localSocket=/run/mysqld/mysqld.sock",
            "jdbc:mariadb://address=(host=localhost)(port=3306)/ivs",
            "jdbc:mariadb:replication://localhost:3306,127.0.0.1:3307/ivs",
            "mongodb://localhost:27017",
            "mongodb://ivs:secret@127.0.0.1:27017/?authSource=admin",
            "mongodb://%2Ftmp%2Fmongodb-27017.sock"
        }) {
            assertTrue(RunMonitor.isLocal(url.startsWith("mongo") ? MONGODB : MARIADB, url), url);
        }
        assertTrue(RunMonitor.isLocal(SQLITE, "jdbc:sqlite:/data/x.db"));
    }

    @Test
    void remoteUrlsAreNot() {
        for (String url : new String[] {
            "jdbc:mariadb://db.example.org:3306/ivs",
            "jdbc:mariadb://10.0.0.5/ivs",
            "jdbc:mariadb://localhost.evil.example/ivs",
            "jdbc:mariadb://user:pw@dbhost/ivs?x=localhost",
            "jdbc:mariadb://address=(host=10.1.1.1)(port=3306)/ivs",
            "jdbc:mariadb:replication://localhost,replica.example/ivs",
            "jdbc:mariadb://[fe80::1]:3306/ivs",
            "mongodb://mongo1:27017,mongo2:27017/?replicaSet=rs0",
            "mongodb+srv://cluster0.example.net",
            "mongodb://u:p@db.example.org/?authSource=localhost",
            "not a url"
        }) {
            assertFalse(RunMonitor.isLocal(url.startsWith("mongo") ? MONGODB : MARIADB, url), url);
        }
        assertFalse(RunMonitor.isLocal(MARIADB, null));
    }

    @Test
    void onlyInProcessSamplingOfARemoteDatabaseIsFlagged() {
        String remote = "jdbc:mariadb://db.example.org/ivs";
        assertTrue(RunMonitor.samplesClientHostOnly(NO_AGENT, MARIADB, remote));
        assertFalse(RunMonitor.samplesClientHostOnly(NO_AGENT, MARIADB, "jdbc:mariadb://localhost/ivs"));
        MonitorConfig agent = new MonitorConfig(true, 1000, "db.example.org:9100", null, null);
        assertFalse(RunMonitor.samplesClientHostOnly(agent, MARIADB, remote), "the agent samples the db host");
        MonitorConfig blankAgent = new MonitorConfig(true, 1000, " ", null, null);
        assertTrue(RunMonitor.samplesClientHostOnly(blankAgent, MARIADB, remote), "a blank agent is none");
        MonitorConfig off = new MonitorConfig(false, 1000, null, null, null);
        assertFalse(RunMonitor.samplesClientHostOnly(off, MARIADB, remote), "nothing sampled at all");
        assertFalse(RunMonitor.samplesClientHostOnly(NO_AGENT, SQLITE, "jdbc:sqlite:x.db"));
        assertEquals("client", RunMonitor.CLIENT_HOST_SOURCE);
    }

    /** Through the real start path: a remote database without an agent gives rows marked source=client. */
    @Test
    void rowsOfARemoteDatabaseSampledHereSayClient(@TempDir Path dir) throws Exception {
        assertEquals("client", sourceOfRows(dir, "jdbc:mariadb://db.example.org:3306/ivs"));
        assertEquals("local", sourceOfRows(dir, "jdbc:mariadb://localhost:3306/ivs"));
    }

    private static String sourceOfRows(Path dir, String url) throws Exception {
        BenchmarkConfig config = RunHarness.config(
                dir,
                "<parameters><type>MARIADB</type><url>" + url + "</url>"
                        + "<username>u</username><password>p</password><terminals>1</terminals><recordcount>10</recordcount>"
                        + "<monitor><interval>100</interval></monitor>"
                        + "<transactiontypes><transactiontype><name>ReadRecord</name></transactiontype></transactiontypes>"
                        + "<works><work><time>1</time><rate>unlimited</rate><weights>100</weights></work></works></parameters>");
        // No database behind the URL: the stand-in offers no counters.
        Target target = (Target) Proxy.newProxyInstance(
                Target.class.getClassLoader(),
                new Class<?>[] {Target.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "kind" -> MARIADB;
                    case "capability" -> Optional.empty();
                    default -> throw new UnsupportedOperationException(method.getName());
                });
        Path runDir = Files.createTempDirectory(dir, "run");
        try (RunMonitor monitor = RunMonitor.start(config, target, runDir, () -> 0)) {
            Thread.sleep(350);
        }
        MonitorCsv csv = new MonitorCsv(runDir.resolve("monitor.csv"));
        assertFalse(csv.rows.isEmpty());
        String source = csv.rows.get(0).get("source");
        for (Map<String, String> row : csv.rows) {
            assertEquals(source, row.get("source"));
        }
        return source;
    }
}
