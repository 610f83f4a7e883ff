package org.ivsbench.experiment;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.faults.MariaDbServer;
import org.ivsbench.testsupport.FreePorts;
import org.ivsbench.testsupport.RunHarness;
import org.ivsbench.testsupport.TestServers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The quiescence wait on real MariaDB servers (InnoDB): main on the primary and clean on a fresh instance restarted
 * per mode (scripts/mariadb.sh restart-fresh) both wait, and epochs.csv and the progress lines say how long; the
 * instance is started with another buffer pool size, which experiment.json records and a warning names. The primary
 * is a MariaDB of this test's own, not the suite's shared server: the wait watches server-wide gauges, which other
 * tests' leftovers on a shared server could keep busy past the wait's timeout.
 */
// Longer than the suite's 5-minute default (docs/trust.md, "Time limits"): an experiment that waits for a quiet
// server in every mode.
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class ExperimentQuiesceMariaDbTest {
    private static final String TABLE = "quiesce_usertable";

    @TempDir
    Path tmp;

    private static long bufferPoolSize(String url) throws Exception {
        try (Connection c = DriverManager.getConnection(url, TestServers.mariadbUser(), TestServers.mariadbPassword());
                ResultSet rs = c.createStatement().executeQuery("SELECT @@GLOBAL.innodb_buffer_pool_size")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    static Map<String, String> row(String header, String line) {
        String[] h = header.split(",", -1);
        String[] c = line.split(",", -1);
        assertEquals(h.length, c.length, line);
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i < h.length; i++) {
            m.put(h[i], c[i]);
        }
        return m;
    }

    @Test
    void everyModeWaitsForAQuietServerAndTheSettingsOfBothServersAreRecorded() throws Exception {
        try (MariaDbServer primary = MariaDbServer.ownInstance("quiesce-mariadb")) {
            everyModeWaitsForAQuietServer(primary);
        }
    }

    private void everyModeWaitsForAQuietServer(MariaDbServer primary) throws Exception {
        long primaryPool = bufferPoolSize(primary.url());
        long instancePool = primaryPool == 64L << 20 ? 96L << 20 : 64L << 20;
        Path state = tmp.resolve("fresh-state");
        int port = FreePorts.belowEphemeral();
        String instanceUrl = "jdbc:mariadb://127.0.0.1:" + port + "/ivsbench";
        String command = "IVS_STATE_DIR='" + state + "' IVS_MARIADB_BASE_PORT=" + port + " IVS_MARIADB_BUFFER_POOL="
                + instancePool + " scripts/mariadb.sh restart-fresh";
        BenchmarkConfig config = RunHarness.config(
                tmp,
                "<parameters>" + primary.connectionXml()
                        + "<terminals>1</terminals><randomSeed>7</randomSeed><batchsize>64</batchsize>"
                        + "<recordcount>300</recordcount><fieldlength>100</fieldlength><engine>InnoDB</engine>"
                        + "<table>" + TABLE + "</table><monitor><enabled>false</enabled></monitor>"
                        + "<experiment><epochs>2</epochs><modes>main,clean</modes>"
                        + "<extend><count>400</count></extend><run><count>300</count></run>"
                        + "<fresh><command>" + command + "</command><url>" + instanceUrl + "</url></fresh>"
                        + "</experiment></parameters>");
        ExperimentRuns.Ran ran;
        try {
            ran = ExperimentRuns.run(config, ExperimentListener.NONE, Files.createTempDirectory(tmp, "results"));
        } finally {
            stopInstance(state);
        }
        System.out.println(ran.console());
        List<String> lines = Files.readAllLines(ran.dir().resolve("epochs.csv"));
        assertEquals(1 + 2 * 2, lines.size(), lines.toString());
        List<String> modes = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            Map<String, String> r = row(lines.get(0), line);
            modes.add(r.get("epoch") + "/" + r.get("mode"));
            assertTrue(Long.parseLong(r.get("quiesce_ms")) >= 0, line);
            // A server that runs only this test's work settles (dirty pages and the history list stop moving or fall
            // below their limits), however busy the box: the premise holds by construction, on servers of its own.
            assertEquals("false", r.get("quiesce_timed_out"), line);
        }
        assertEquals(List.of("1/main", "1/clean", "2/main", "2/clean"), modes);
        for (String mode : List.of("epoch 1/2 mode main:", "epoch 1/2 mode clean:", "epoch 2/2 mode main:")) {
            assertTrue(
                    ran.console().lines().anyMatch(l -> l.startsWith(mode) && l.contains(", quiet after ")),
                    mode + " in " + ran.console());
        }
        JsonNode settings = new ObjectMapper()
                .readTree(ran.dir().resolve(ExperimentState.FILE).toFile())
                .get("serverSettings");
        assertEquals(
                primaryPool,
                settings.get("primary").get("innodb_buffer_pool_size").asLong(),
                settings.toString());
        assertEquals(
                instancePool,
                settings.get("freshInstance").get("innodb_buffer_pool_size").asLong(),
                settings.toString());
        assertTrue(settings.get("primary").has("innodb_flush_log_at_trx_commit"), settings.toString());
        String expected = "innodb_buffer_pool_size " + primaryPool + " vs " + instancePool;
        assertTrue(settings.get("differing").toString().contains(expected), settings.toString());
        List<String> warnings = ran.console()
                .lines()
                .filter(l -> l.startsWith("warning: the fresh instance's server settings differ"))
                .toList();
        // Said once: every restart gives the instance the same settings.
        assertEquals(1, warnings.size(), ran.console());
        assertTrue(warnings.get(0).contains(expected), warnings.get(0));
    }

    private static void stopInstance(Path state) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("scripts/mariadb.sh", "stop")
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("IVS_STATE_DIR", state.toString());
        Process p = pb.start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "scripts/mariadb.sh stop of the fresh instance");
    }
}
