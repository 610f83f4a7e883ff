package org.ivsbench.experiment;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;
import org.ivsbench.testsupport.RunHarness;
import org.ivsbench.testsupport.TestServers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The paper's conditions on the private MariaDB: main's run phase follows the extend phase with no full-table
 * pass in between (the value sizes and clean's snapshot come after it when it only reads), counted with the
 * server's own handler counters.
 */
class ExperimentConditionsTest {
    private static final String TABLE = "cond_usertable";
    private static final int RECORDS = 300;

    @TempDir
    Path tmp;

    /**
     * Rows the server has read by scanning so far (all sessions): Handler_read_rnd_next (table scans) plus
     * Handler_read_next (index scans, as a key-ordered stream reads). Point reads count in Handler_read_key,
     * not here. (Innodb_rows_read is not reported by MariaDB 10.11.)
     */
    static long rowsScanned(String url) throws TargetException {
        try (Connection c = DriverManager.getConnection(url, TestServers.mariadbUser(), TestServers.mariadbPassword());
                ResultSet rs = c.createStatement()
                        .executeQuery("SHOW GLOBAL STATUS WHERE Variable_name IN"
                                + " ('Handler_read_rnd_next', 'Handler_read_next')")) {
            long rows = 0;
            while (rs.next()) {
                rows += rs.getLong(2);
            }
            return rows;
        } catch (SQLException e) {
            throw new TargetException(e.getMessage(), e, false);
        }
    }

    @ParameterizedTest
    @CsvSource({"logical", "native"})
    void noFullTablePassHappensBetweenTheExtendPhaseAndMainsRun(String cleanMethod) throws Exception {
        BenchmarkConfig config = RunHarness.config(
                tmp,
                "<parameters>" + RunHarness.mariadbConnection()
                        + "<terminals>1</terminals><randomSeed>7</randomSeed><batchsize>64</batchsize>"
                        + "<recordcount>" + RECORDS + "</recordcount><fieldlength>100</fieldlength>"
                        + "<table>" + TABLE + "</table><monitor><enabled>false</enabled></monitor>"
                        + "<experiment><epochs>2</epochs><extend><count>200</count></extend>"
                        + "<run><count>100</count></run><clean><method>" + cleanMethod + "</method></clean>"
                        + "</experiment></parameters>");
        List<Long> afterExtend = new ArrayList<>();
        List<Long> gaps = new ArrayList<>();
        List<Long> primaryReadyRows = new ArrayList<>();
        String url = TestServers.mariadbUrl();
        ExperimentListener listener = new ExperimentListener() {
            @Override
            public void extendDone(int epoch, Target primary, String table) throws TargetException {
                afterExtend.add(rowsScanned(url));
            }

            @Override
            public void beforeMainRun(int epoch, Target primary) throws TargetException {
                gaps.add(rowsScanned(url) - afterExtend.get(epoch - 1));
            }

            @Override
            public void primaryReady(int epoch, Target primary, String table) throws TargetException {
                // The passes do happen, after main's run: the counters move by at least a table's rows.
                primaryReadyRows.add(rowsScanned(url) - afterExtend.get(epoch - 1));
            }
        };
        Path dir = ExperimentRuns.run(config, listener, Files.createTempDirectory(tmp, "results"))
                .dir();
        // Rows scanned between the end of the extend phase and the start of main's run: only the few rows of
        // the counter query itself (SHOW STATUS scans its own list), not a table's.
        assertEquals(2, gaps.size());
        for (long gap : gaps) {
            assertTrue(gap < 10, "rows scanned between the extends and main's run: " + gap);
        }
        for (long rows : primaryReadyRows) {
            assertTrue(rows >= RECORDS, "the snapshot/value-size pass after main's run scanned " + rows + " rows");
        }
        assertEquals(1 + 2 * 4, Files.readAllLines(dir.resolve("epochs.csv")).size());
    }
}
