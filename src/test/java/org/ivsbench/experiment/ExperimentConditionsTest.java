package org.ivsbench.experiment;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;
import org.ivsbench.testsupport.RunHarness;
import org.ivsbench.testsupport.TableStatistics;
import org.ivsbench.testsupport.TestServers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The paper's conditions on the private MariaDB: main's run phase follows the extend phase with no full-table
 * pass in between (the value sizes and clean's snapshot come after it when it only reads), counted in the rows
 * read from the experiment's table (TABLE_STATISTICS), which nothing else on the server touches.
 */
class ExperimentConditionsTest {
    private static final String TABLE = "cond_usertable";
    private static final int RECORDS = 300;

    @TempDir
    Path tmp;

    /** Rows read from the experiment's table so far, by any statement (TABLE_STATISTICS: the table's alone). */
    private static long rowsRead(String url, String schema) throws TargetException {
        try {
            return TableStatistics.rowsRead(url, schema, TABLE);
        } catch (Exception e) {
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
        String schema = TableStatistics.schema(url);
        ExperimentListener listener = new ExperimentListener() {
            @Override
            public void extendDone(int epoch, Target primary, String table) throws TargetException {
                afterExtend.add(rowsRead(url, schema));
            }

            @Override
            public void beforeMainRun(int epoch, Target primary) throws TargetException {
                gaps.add(rowsRead(url, schema) - afterExtend.get(epoch - 1));
            }

            @Override
            public void primaryReady(int epoch, Target primary, String table) throws TargetException {
                // The passes do happen, after main's run: the counters move by at least a table's rows.
                primaryReadyRows.add(rowsRead(url, schema) - afterExtend.get(epoch - 1));
            }
        };
        Path dir;
        boolean userstat = TableStatistics.userstat(url, true);
        try {
            dir = ExperimentRuns.run(config, listener, Files.createTempDirectory(tmp, "results"))
                    .dir();
        } finally {
            TableStatistics.userstat(url, userstat);
        }
        // Rows of the table read between the end of the extend phase and the start of main's run: none.
        assertEquals(List.of(0L, 0L), gaps, "rows read between the extends and main's run, per epoch");
        for (long rows : primaryReadyRows) {
            // Main's run (100 point reads) and then at least one whole pass over the table.
            assertTrue(
                    rows >= 100 + RECORDS,
                    "main's run and the snapshot/value-size pass after it read " + rows + " rows");
        }
        assertEquals(1 + 2 * 4, Files.readAllLines(dir.resolve("epochs.csv")).size());
    }
}
