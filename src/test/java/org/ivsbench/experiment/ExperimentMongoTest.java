package org.ivsbench.experiment;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;
import org.ivsbench.testsupport.RunHarness;
import org.ivsbench.testsupport.TestServers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A small experiment on MongoDB (the wire-protocol stand-in the test script starts): all four modes run on
 * what the paper describes, with fresh databases created and dropped through the MongoDB target.
 */
// Longer than the suite's 5-minute default (docs/trust.md, "Time limits"): multi-epoch experiments, as
// ExperimentMariaDbTest.
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class ExperimentMongoTest {
    private static final String TABLE = "exp_usertable";

    @TempDir
    Path tmp;

    @Test
    void everyModeRunsAgainstWhatThePaperDescribes() throws Exception {
        BenchmarkConfig config = RunHarness.config(
                tmp,
                "<parameters><type>MONGODB</type><url>"
                        + TestServers.mongoUrl() + "</url><terminals>1</terminals><randomSeed>5</randomSeed>"
                        + "<batchsize>50</batchsize><recordcount>100</recordcount><fieldcount>10</fieldcount>"
                        + "<fieldlength>100</fieldlength><table>" + TABLE + "</table>"
                        + "<transactiontypes><transactiontype><name>ReadRecord</name></transactiontype></transactiontypes>"
                        + "<works><work><time>1</time><rate>unlimited</rate><weights>100</weights></work></works>"
                        + "<monitor><enabled>false</enabled></monitor><experiment><epochs>2</epochs>"
                        + "<extend><count>300</count><distribution>zipfian</distribution></extend>"
                        + "<run><count>200</count><weights>ReadRecord:50,UpdateRecord:50</weights></run>"
                        + "</experiment></parameters>");
        Map<Integer, Long> afterExtend = new HashMap<>();
        Map<Integer, ValueSizeStats> sizes = new HashMap<>();
        Map<String, Boolean> checked = new HashMap<>();
        ExperimentListener listener = new ExperimentListener() {
            @Override
            public void primaryReady(int epoch, Target primary, String table) throws TargetException {
                afterExtend.put(epoch, ExperimentMariaDbTest.checksum(primary, TABLE));
                sizes.put(epoch, ValueSizeStats.of(primary, table));
            }

            @Override
            public void freshReady(int epoch, Mode mode, Target fresh, String table) throws TargetException {
                ExperimentMariaDbTest.assertFreshDatabase(mode, afterExtend.get(epoch), sizes.get(epoch), fresh, table);
                checked.put(epoch + "/" + mode, true);
            }
        };
        Path dir = ExperimentRuns.run(config, listener, Files.createTempDirectory(tmp, "results"))
                .dir();
        assertEquals(6, checked.size(), checked.toString());
        // 100 records x 1000 bytes + 300 extends x 100 bytes per epoch (none reaches the cap).
        assertEquals(100_000L + 30_000L, sizes.get(1).totalBytes());
        try (MongoClient client = MongoClients.create(TestServers.mongoUrl())) {
            List<String> names = client.listDatabaseNames().into(new ArrayList<>());
            for (String scratch : List.of(FreshDatabases.CLEAN, FreshDatabases.AVERAGE, FreshDatabases.SPREAD)) {
                assertFalse(names.contains(scratch), "scratch database " + scratch + " left behind: " + names);
            }
        }
        List<String> rows = Files.readAllLines(dir.resolve("epochs.csv"));
        assertEquals(1 + 2 * 4, rows.size(), rows.toString());
        assertTrue(rows.stream().skip(1).allMatch(r -> r.split(",", -1)[14].equals("200")), "run_ops: " + rows);
    }
}
