package org.ivsbench.experiment;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;
import org.ivsbench.faults.PostgresServer;
import org.ivsbench.testsupport.RunHarness;
import org.ivsbench.testsupport.TestServers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The quiescence wait on a private PostgreSQL: before every run phase, main's and clean's, the table is
 * ANALYZEd (pg_stat_user_tables.last_analyze, which autovacuum's own analyze leaves alone) and a CHECKPOINT is
 * requested (pg_stat_bgwriter.checkpoints_req); epochs.csv has the wait's columns on every row. The server is one of
 * this test's own, not the suite's shared server: the checkpoint count and the wait's gauges are server-wide.
 */
// Longer than the suite's 5-minute default (docs/trust.md, "Time limits"): an experiment that waits for a quiet
// server in every mode.
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class ExperimentQuiescePostgresTest {
    private static final String TABLE = "quiesce_usertable";

    @TempDir
    Path tmp;

    private PostgresServer server;

    private static Connection connect(String url) throws SQLException {
        return DriverManager.getConnection(url, TestServers.postgresUser(), TestServers.postgresPassword());
    }

    /** Requested checkpoints so far (server-wide: this test's own server runs only this test's work). */
    private long checkpointsRequested() throws SQLException {
        try (Connection c = connect(server.url());
                ResultSet rs = c.createStatement().executeQuery("SELECT checkpoints_req FROM pg_stat_bgwriter")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Whether {@code table} in the database behind {@code url} has been ANALYZEd by a statement (not autovacuum). */
    private static boolean analyzed(String url, String table) throws SQLException {
        try (Connection c = connect(url);
                PreparedStatement ps = c.prepareStatement(
                        "SELECT last_analyze IS NOT NULL FROM pg_stat_user_tables WHERE relname = ?")) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }

    private String urlOf(Target target) {
        // The fresh database's url: the primary's with the database name replaced.
        return server.url().replaceFirst("/[^/?]+(\\?|$)", "/" + FreshDatabases.CLEAN + "$1");
    }

    @Test
    void everyRunPhaseFollowsAnAnalyzeAndACheckpoint() throws Exception {
        try (PostgresServer own = PostgresServer.ownInstance("quiesce-postgres")) {
            server = own;
            everyRunPhaseWaits();
        }
    }

    private void everyRunPhaseWaits() throws Exception {
        BenchmarkConfig config = RunHarness.config(
                tmp,
                "<parameters>" + server.connectionXml()
                        + "<terminals>1</terminals><randomSeed>7</randomSeed><batchsize>64</batchsize>"
                        + "<recordcount>200</recordcount><fieldlength>100</fieldlength>"
                        + "<table>" + TABLE + "</table><monitor><enabled>false</enabled></monitor>"
                        + "<experiment><epochs>2</epochs><modes>main,clean</modes><clean><method>logical</method></clean>"
                        + "<extend><count>300</count></extend><run><count>200</count></run>"
                        + "</experiment></parameters>");
        List<String> analyzedBeforeDrop = new ArrayList<>();
        long before = checkpointsRequested();
        ExperimentListener listener = new ExperimentListener() {
            @Override
            public void freshReady(int epoch, Mode mode, Target fresh, String table) {
                try {
                    // Just restored: nothing has analyzed the copy yet, so what beforeDrop sees is the wait's.
                    assertTrue(!analyzed(urlOf(fresh), table), "analyzed before the wait");
                } catch (SQLException e) {
                    throw new AssertionError(e);
                }
            }

            @Override
            public void beforeDrop(int epoch, Mode mode, Target fresh, String table) throws TargetException {
                try {
                    if (analyzed(urlOf(fresh), table)) {
                        analyzedBeforeDrop.add(epoch + "/" + mode.label());
                    }
                } catch (SQLException e) {
                    throw new AssertionError(e);
                }
            }
        };
        ExperimentRuns.Ran ran = ExperimentRuns.run(config, listener, Files.createTempDirectory(tmp, "results"));
        long checkpoints = checkpointsRequested() - before;
        assertEquals(List.of("1/clean", "2/clean"), analyzedBeforeDrop);
        // One per run phase (2 epochs x main, clean); the server may add its own when the WAL fills.
        assertTrue(checkpoints >= 4, "checkpoints requested during the experiment: " + checkpoints);
        List<String> lines = Files.readAllLines(ran.dir().resolve("epochs.csv"));
        assertEquals(1 + 2 * 2, lines.size(), lines.toString());
        for (String line : lines.subList(1, lines.size())) {
            Map<String, String> r = ExperimentQuiesceMariaDbTest.row(lines.get(0), line);
            assertTrue(Long.parseLong(r.get("quiesce_ms")) >= 0, line);
            assertEquals("false", r.get("quiesce_timed_out"), line);
        }
        assertTrue(ran.console().contains("mode clean: 200 ops"), ran.console());
        assertTrue(!ran.console().contains("warning: quiescence wait"), ran.console());
    }
}
