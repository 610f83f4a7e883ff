package org.ivsbench.experiment;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;
import org.ivsbench.testsupport.RunHarness;
import org.ivsbench.testsupport.TestServers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The four-mode experiment on the private PostgreSQL: each fresh mode's database (created and dropped over the
 * maintenance database) holds what {@link ExperimentMariaDbTest#assertFreshDatabase} says, and none is left.
 */
// Longer than the suite's 5-minute default (docs/trust.md, "Time limits"): multi-epoch experiments, as
// ExperimentMariaDbTest.
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class ExperimentPostgresTest {
    private static final String TABLE = "exp_usertable";

    @TempDir
    Path tmp;

    /** native: pg_dump and psql; its clean copy's checksum must equal the primary's as the logical one's does. */
    @ParameterizedTest
    @ValueSource(strings = {"logical", "native"})
    void everyModeRunsAgainstWhatThePaperDescribes(String cleanMethod) throws Exception {
        BenchmarkConfig config = RunHarness.config(
                tmp,
                "<parameters>" + RunHarness.postgresConnection()
                        + "<terminals>1</terminals><randomSeed>7</randomSeed><batchsize>64</batchsize>"
                        + "<recordcount>200</recordcount><fieldcount>10</fieldcount><fieldlength>100</fieldlength>"
                        + "<table>" + TABLE + "</table>"
                        + "<transactiontypes><transactiontype><name>ReadRecord</name></transactiontype></transactiontypes>"
                        + "<works><work><time>1</time><rate>unlimited</rate><weights>100</weights></work></works>"
                        + "<monitor><enabled>false</enabled></monitor>"
                        + "<experiment><epochs>3</epochs><extend><count>400</count><distribution>zipfian</distribution>"
                        + "</extend><run><count>300</count></run><clean><method>" + cleanMethod + "</method></clean>"
                        + "</experiment></parameters>");
        Map<Integer, Long> primarySum = new HashMap<>();
        Map<Integer, ValueSizeStats> primarySizes = new HashMap<>();
        Map<String, Boolean> checked = new HashMap<>();
        ExperimentListener listener = new ExperimentListener() {
            @Override
            public void primaryReady(int epoch, Target primary, String table) throws TargetException {
                primarySum.put(epoch, ExperimentMariaDbTest.checksum(primary, TABLE));
                primarySizes.put(epoch, ValueSizeStats.of(primary, table));
            }

            @Override
            public void beforeDrop(int epoch, Mode mode, Target fresh, String table) throws TargetException {
                ExperimentMariaDbTest.assertFreshDatabase(
                        mode, primarySum.get(epoch), primarySizes.get(epoch), fresh, table);
                checked.put(epoch + "/" + mode, true);
            }
        };
        Path dir = ExperimentRuns.run(config, listener, Files.createTempDirectory(tmp, "results"))
                .dir();
        assertEquals(9, checked.size(), checked.toString());
        try (Connection c = DriverManager.getConnection(
                        TestServers.postgresUrl(), TestServers.postgresUser(), TestServers.postgresPassword());
                ResultSet rs = c.createStatement()
                        .executeQuery("SELECT datname FROM pg_database WHERE datname IN ('" + FreshDatabases.CLEAN
                                + "','" + FreshDatabases.AVERAGE + "','" + FreshDatabases.SPREAD + "')")) {
            assertFalse(rs.next(), "a fresh database was left behind");
        }
        List<String> rows = Files.readAllLines(dir.resolve("epochs.csv"));
        assertEquals(1 + 3 * 4, rows.size());
        for (int epoch = 1; epoch <= 3; epoch++) {
            long data = 200L * 1000 + epoch * 400L * 100; // nothing reaches the cap
            String[] main = rows.get(1 + (epoch - 1) * 4).split(",", -1);
            assertEquals(epoch + ",main", main[0] + "," + main[1]);
            assertEquals(data, Long.parseLong(main[3]));
            for (int m = 0; m < 4; m++) {
                assertEquals("300", rows.get(1 + (epoch - 1) * 4 + m).split(",", -1)[14], "run_ops");
            }
        }
        JsonNode db = new ObjectMapper()
                .readTree(dir.resolve("epoch-001/clean/run/summary.json").toFile())
                .get("database");
        assertEquals("POSTGRESQL", db.get("type").asText(), db.toString());
        assertEquals("PostgreSQL", db.get("product").asText(), db.toString());
        assertTrue(db.get("version").asText().startsWith("15"), db.toString());
    }
}
