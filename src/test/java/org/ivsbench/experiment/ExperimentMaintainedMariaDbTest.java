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

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;
import org.ivsbench.testsupport.FreePorts;
import org.ivsbench.testsupport.RunHarness;
import org.ivsbench.testsupport.TestServers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Mode main-maintained on real MariaDB servers: every epoch scripts/mariadb.sh restart-copy makes a physical copy of
 * the primary (mariadb-backup) on a second private instance, the engine's own reorganization runs there (InnoDB
 * OPTIMIZE TABLE, a MyRocks manual compaction), and the run phase reads the copy: it holds exactly main's records
 * (checksum), maintenance.csv says what the reorganization did, and epochs.csv has the mode's row.
 */
// A copy of the primary's server and a MariaDB start per epoch: longer than the suite's 5-minute default.
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class ExperimentMaintainedMariaDbTest {
    private static final String TABLE = "maint_usertable";
    private static final int RUN_READS = 200;

    @TempDir
    Path tmp;

    /** The state directory of the suite's MariaDB: where its pid file lies (scripts/mariadb.sh keeps it there). */
    private static Path primaryState() throws Exception {
        try (Connection c = DriverManager.getConnection(
                        TestServers.mariadbUrl(), TestServers.mariadbUser(), TestServers.mariadbPassword());
                ResultSet rs = c.createStatement().executeQuery("SELECT @@pid_file")) {
            rs.next();
            return Path.of(rs.getString(1)).getParent();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"InnoDB", "RocksDB", "InnoDB in slices"})
    void everyEpochReadsAReorganizedPhysicalCopyOfMain(String variant) throws Exception {
        String engine = variant.split(" ")[0];
        String slices = variant.endsWith("slices") ? "<slices>2</slices>" : "";
        Path state = tmp.resolve("copy-state");
        int port = FreePorts.belowEphemeral();
        String url = "jdbc:mariadb://127.0.0.1:" + port + "/ivsbench";
        String command = "IVS_STATE_DIR='" + state + "' IVS_COPY_OF='" + primaryState() + "' IVS_MARIADB_BASE_PORT="
                + port + " scripts/mariadb.sh restart-copy";
        BenchmarkConfig config = RunHarness.config(
                tmp,
                "<parameters>" + RunHarness.mariadbConnection()
                        + "<terminals>1</terminals><randomSeed>7</randomSeed><batchsize>64</batchsize>"
                        + "<recordcount>200</recordcount><fieldlength>100</fieldlength><engine>" + engine
                        + "</engine><table>" + TABLE + "</table>"
                        + "<transactiontypes><transactiontype><name>ReadRecord</name></transactiontype></transactiontypes>"
                        + "<works><work><time>1</time><rate>unlimited</rate><weights>100</weights></work></works>"
                        + "<experiment><epochs>2</epochs><modes>main,main-maintained</modes>" + slices
                        + "<extend><count>300</count></extend><run><count>" + RUN_READS + "</count></run>"
                        + "<maintained><command>" + command + "</command><url>" + url + "</url></maintained>"
                        + "</experiment></parameters>");
        Map<Integer, Long> primarySum = new HashMap<>();
        List<String> checked = new ArrayList<>();
        ExperimentListener listener = new ExperimentListener() {
            @Override
            public void primaryReady(int epoch, Target primary, String table) throws TargetException {
                primarySum.put(epoch, ExperimentMariaDbTest.checksum(primary, TABLE));
            }

            @Override
            public void freshReady(int epoch, Mode mode, Target copy, String table) throws TargetException {
                assertEquals(Mode.MAINTAINED, mode);
                assertEquals(primarySum.get(epoch), ExperimentMariaDbTest.checksum(copy, TABLE), "copy = main");
                checked.add(epoch + "/" + mode.label());
            }
        };
        Path dir;
        try {
            dir = ExperimentRuns.run(config, listener, Files.createTempDirectory(tmp, "results"))
                    .dir();
        } finally {
            ProcessBuilder pb = new ProcessBuilder("scripts/mariadb.sh", "stop")
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD);
            pb.environment().put("IVS_STATE_DIR", state.toString());
            assertTrue(pb.start().waitFor(60, TimeUnit.SECONDS), "stopping the copy");
        }
        assertEquals(List.of("1/main-maintained", "2/main-maintained"), checked);

        List<String> rows = Files.readAllLines(dir.resolve("epochs.csv"));
        assertEquals(1 + 2 * 2, rows.size(), rows.toString());
        List<String> header = List.of(rows.get(0).split(","));
        for (String row : rows.subList(1, rows.size())) {
            String[] c = row.split(",", -1);
            assertEquals(RUN_READS, Long.parseLong(c[header.indexOf("run_ops")]), row);
            if (c[1].equals("main-maintained")) {
                assertTrue(Long.parseLong(c[header.indexOf("snapshot_ms")]) > 0, "the copy's time: " + row);
                assertTrue(!c[header.indexOf("restore_ms")].isEmpty(), "the maintenance's time: " + row);
            }
        }

        List<String> maintenance = Files.readAllLines(dir.resolve(EpochsCsv.MAINTENANCE_FILE));
        assertEquals(EpochsCsv.MAINTENANCE_HEADER, maintenance.get(0));
        String statement = engine.equals("InnoDB")
                ? "OPTIMIZE TABLE `" + TABLE + "`"
                : "SET GLOBAL rocksdb_compact_cf = 'default'";
        Map<String, String[]> epoch2 = new HashMap<>();
        for (String line : maintenance.subList(1, maintenance.size())) {
            String[] c = line.split(",", -1);
            assertEquals(statement, c[3], line);
            if (c[0].equals("2")) {
                epoch2.put(c[4], c);
            }
        }
        assertTrue(epoch2.containsKey("table.data_length"), epoch2.keySet().toString());
        if (!slices.isEmpty()) {
            assertEquals(
                    1 + 2 * 2 * 2,
                    Files.readAllLines(dir.resolve(EpochsCsv.SLICES_FILE)).size());
        }
        if (engine.equals("RocksDB")) {
            // A full manual compaction leaves nothing in L0 (the copy's flushed memtable was there before it).
            String[] l0 = epoch2.get("rocksdb.L0_files");
            assertTrue(l0 != null && Double.parseDouble(l0[5]) > 0, "L0 files before compaction: " + epoch2.keySet());
            assertTrue(l0[6].isEmpty() || Double.parseDouble(l0[6]) == 0, "L0 files after compaction: " + l0[6]);
        }
    }
}
