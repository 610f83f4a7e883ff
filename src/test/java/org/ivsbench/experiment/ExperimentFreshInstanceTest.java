package org.ivsbench.experiment;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
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
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.bench.BenchmarkModule;
import org.ivsbench.bench.LoadProgress;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;
import org.ivsbench.db.Targets;
import org.ivsbench.testsupport.FreePorts;
import org.ivsbench.testsupport.RunHarness;
import org.ivsbench.testsupport.TableStatistics;
import org.ivsbench.testsupport.TestServers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * experiment/fresh on real servers: before each fresh mode the command restarts a second private MariaDB on an
 * empty datadir (scripts/mariadb.sh restart-fresh with its own state directory and port), and clean-run and
 * average-baseline run there, not on the primary's server.
 */
// Longer than the suite's 5-minute default (docs/trust.md, "Time limits"): a fresh MariaDB instance started per
// epoch and fresh mode.
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class ExperimentFreshInstanceTest {
    private static final String TABLE = "fresh_usertable";
    /** The run phase's operation count (experiment/run/count in the config below): one row read each. */
    private static final int RUN_READS = 200;

    @TempDir
    Path tmp;

    /** True when the primary's server has a database of that name right now. */
    private static boolean primaryHasDatabase(String name) throws Exception {
        try (Connection c = DriverManager.getConnection(
                        TestServers.mariadbUrl(), TestServers.mariadbUser(), TestServers.mariadbPassword());
                ResultSet rs = c.createStatement()
                        .executeQuery("SELECT 1 FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = '" + name + "'")) {
            return rs.next();
        }
    }

    /** The pid file of the server behind {@code url}, as the server names it. */
    private static String pidFile(String url) throws Exception {
        try (Connection c = DriverManager.getConnection(url, TestServers.mariadbUser(), TestServers.mariadbPassword());
                ResultSet rs = c.createStatement().executeQuery("SELECT @@pid_file")) {
            rs.next();
            return rs.getString(1);
        }
    }

    /** The server process behind {@code url}: the pid in its own pid file (both servers run on this host). */
    private static long serverPid(String url) throws Exception {
        return Long.parseLong(Files.readString(Path.of(pidFile(url))).trim());
    }

    /** summary.json's serverPid: the process its monitor's proc.* columns sampled. */
    private static long serverPid(Path summary) throws Exception {
        JsonNode pid = new ObjectMapper().readTree(summary.toFile()).get("serverPid");
        assertTrue(pid != null && pid.canConvertToLong(), summary + ": serverPid " + pid);
        return pid.asLong();
    }

    private static String databaseOf(Mode mode) {
        return mode == Mode.CLEAN ? FreshDatabases.CLEAN : FreshDatabases.AVERAGE;
    }

    @Test
    void freshModesRunOnAFreshInstanceTheCommandProvides() throws Exception {
        // The monitor is told the primary's pid file: main-run's proc.* sample that process, the fresh modes' their
        // own instance (found by its port), never the primary's named in the config.
        String primaryPidFile = pidFile(TestServers.mariadbUrl());
        Path state = tmp.resolve("fresh-state");
        int port = FreePorts.belowEphemeral();
        String instanceUrl = "jdbc:mariadb://127.0.0.1:" + port + "/ivsbench";
        String command =
                "IVS_STATE_DIR='" + state + "' IVS_MARIADB_BASE_PORT=" + port + " scripts/mariadb.sh restart-fresh";
        BenchmarkConfig config = RunHarness.config(
                tmp,
                "<parameters>" + RunHarness.mariadbConnection()
                        + "<terminals>1</terminals><randomSeed>7</randomSeed><batchsize>64</batchsize>"
                        + "<recordcount>200</recordcount><fieldlength>100</fieldlength><table>" + TABLE + "</table>"
                        + "<transactiontypes><transactiontype><name>ReadRecord</name></transactiontype></transactiontypes>"
                        + "<works><work><time>1</time><rate>unlimited</rate><weights>100</weights></work></works>"
                        + "<monitor><enabled>true</enabled><pidFile>" + primaryPidFile + "</pidFile></monitor>"
                        + "<experiment><epochs>2</epochs><modes>main,clean,average-baseline</modes>"
                        + "<extend><count>300</count></extend><run><count>" + RUN_READS + "</count></run>"
                        + "<fresh><command>" + command + "</command><url>" + instanceUrl + "</url></fresh>"
                        + "</experiment></parameters>");
        Path parent = Files.createTempDirectory(tmp, "results");
        Map<Integer, Long> primarySum = new HashMap<>();
        List<String> checked = new ArrayList<>();
        List<Long> instancePids = new ArrayList<>();
        long primaryPid = serverPid(TestServers.mariadbUrl());
        String primarySchema = TableStatistics.schema(TestServers.mariadbUrl());
        long[] readAtReady = new long[2];
        List<String> readDeltas = new ArrayList<>();
        ExperimentListener listener = new ExperimentListener() {
            @Override
            public void primaryReady(int epoch, Target primary, String table) throws TargetException {
                primarySum.put(epoch, ExperimentMariaDbTest.checksum(primary, TABLE));
            }

            @Override
            public void freshReady(int epoch, Mode mode, Target fresh, String table) {
                try {
                    instancePids.add(serverPid(instanceUrl));
                    // Every fresh mode gets a new server, with userstat off as MariaDB ships it.
                    TableStatistics.userstat(instanceUrl, true);
                    readAtReady[0] = TableStatistics.rowsRead(TestServers.mariadbUrl(), primarySchema, TABLE);
                    readAtReady[1] = TableStatistics.rowsRead(instanceUrl, databaseOf(mode), TABLE);
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            }

            @Override
            public void beforeDrop(int epoch, Mode mode, Target fresh, String table) throws TargetException {
                String name = databaseOf(mode);
                try {
                    assertFalse(primaryHasDatabase(name), name + " is on the fresh instance, not the primary's server");
                    // The mode's run phase is <run><count>200</count> ReadRecord point reads and nothing else: each
                    // reads one row of the instance's table, and none touches the primary's table of that name.
                    long primaryRead =
                            TableStatistics.rowsRead(TestServers.mariadbUrl(), primarySchema, TABLE) - readAtReady[0];
                    long instanceRead = TableStatistics.rowsRead(instanceUrl, name, TABLE) - readAtReady[1];
                    readDeltas.add(primaryRead + "/" + instanceRead);
                    assertEquals(RUN_READS, instanceRead, "rows the run phase read on the fresh instance");
                    assertEquals(0, primaryRead, "rows the run phase read on the primary's server");
                } catch (TargetException | RuntimeException | Error e) {
                    throw e;
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
                if (mode == Mode.CLEAN) {
                    assertEquals(
                            primarySum.get(epoch),
                            ExperimentMariaDbTest.checksum(fresh, TABLE),
                            "clean copy = main-run content");
                } else {
                    assertEquals(200, fresh.countRecords(table));
                }
                checked.add(epoch + "/" + mode.label());
            }
        };
        Path dir;
        boolean primaryUserstat = TableStatistics.userstat(TestServers.mariadbUrl(), true);
        try {
            ExperimentRuns.Ran ran = ExperimentRuns.run(config, listener, parent);
            assertTrue(ran.console().contains("epoch 2 mode average-baseline: fresh instance ready in"), ran.console());
            dir = ran.dir();
        } finally {
            try {
                TableStatistics.userstat(TestServers.mariadbUrl(), primaryUserstat);
            } finally {
                stopInstance(state);
            }
        }
        assertEquals(List.of("1/clean", "1/average-baseline", "2/clean", "2/average-baseline"), checked);
        // Another server process for every fresh mode: none is the primary, none survives a restart-fresh.
        assertEquals(4, instancePids.size());
        assertEquals(4, instancePids.stream().distinct().count(), instancePids.toString());
        assertFalse(instancePids.contains(primaryPid), primaryPid + " in " + instancePids);
        System.out.println("rows read primary/instance per fresh mode: " + readDeltas);
        // The monitor of each phase sampled the server that phase ran on (summary.json's serverPid: the process
        // behind proc.*): main-run's the primary, each fresh mode's its own instance.
        List<Long> sampled = new ArrayList<>();
        for (int epoch = 1; epoch <= 2; epoch++) {
            Path epochDir = dir.resolve(String.format("epoch-%03d", epoch));
            assertEquals(primaryPid, serverPid(epochDir.resolve("main/run/summary.json")), "main-run, epoch " + epoch);
            for (String mode : List.of("clean", "average-baseline")) {
                sampled.add(serverPid(epochDir.resolve(mode).resolve("run/summary.json")));
            }
        }
        assertEquals(instancePids, sampled, "the fresh modes' monitored server process, in order");
        assertEquals(1 + 2 * 3, Files.readAllLines(dir.resolve("epochs.csv")).size());
        String log = Files.readString(dir.resolve(FreshServer.LOG));
        assertEquals(4, log.lines().filter(l -> l.startsWith("== ")).count(), log);
        assertTrue(log.contains("ready on 127.0.0.1:" + port), log);
        String experimentJson = Files.readString(dir.resolve(ExperimentState.FILE));
        assertTrue(experimentJson.contains("\"freshInstance\""), experimentJson);
    }

    @Test
    void aFailingCommandStopsTheExperimentWithItsOutput() throws Exception {
        BenchmarkConfig config = RunHarness.config(
                tmp,
                "<parameters>" + RunHarness.mariadbConnection()
                        + "<terminals>1</terminals><randomSeed>7</randomSeed><recordcount>50</recordcount>"
                        + "<table>" + TABLE + "</table>"
                        + "<transactiontypes><transactiontype><name>ReadRecord</name></transactiontype></transactiontypes>"
                        + "<works><work><time>1</time><rate>unlimited</rate><weights>100</weights></work></works>"
                        + "<monitor><enabled>false</enabled></monitor>"
                        + "<experiment><epochs>1</epochs><modes>main,clean</modes>"
                        + "<extend><count>10</count></extend><run><count>10</count></run>"
                        + "<fresh><command>echo no datadir for you; exit 3</command>"
                        + "<url>jdbc:mariadb://127.0.0.1:1/ivsbench</url></fresh></experiment></parameters>");
        ExperimentSpec spec = ExperimentSpec.parse(config, RunHarness.module());
        BenchmarkModule module = RunHarness.module();
        Path parent = Files.createTempDirectory(tmp, "results");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream oldErr = System.err;
        int code;
        try (Target target = Targets.open(config.target())) {
            module.create(config, target);
            module.load(config, target, LoadProgress.NONE);
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            try {
                code = ExperimentRun.run(
                        module,
                        config,
                        spec,
                        target,
                        parent,
                        1,
                        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                        List.of("test"),
                        false,
                        ExperimentListener.NONE);
            } finally {
                System.setErr(oldErr);
            }
            module.clear(config, target);
        }
        String message = err.toString(StandardCharsets.UTF_8);
        assertEquals(1, code, message);
        // The message names the command, where it ran, its last line and the log with all of its output.
        assertTrue(
                message.contains("experiment/fresh/command 'echo no datadir for you; exit 3' exited 3 (run by sh in "
                        + Path.of("").toAbsolutePath() + "): no datadir for you (whole output in "),
                message);
        Path dir;
        try (Stream<Path> s = Files.list(parent)) {
            dir = s.findFirst().orElseThrow();
        }
        // The main-run measured before the failure is kept.
        assertTrue(message.contains(dir.toAbsolutePath().resolve(FreshServer.LOG) + ")"), message);
        List<String> rows = Files.readAllLines(dir.resolve("epochs.csv"));
        assertEquals(2, rows.size(), rows.toString());
        assertTrue(rows.get(1).startsWith("1,main,"), rows.toString());
    }

    /**
     * experiment/slices with a fresh instance: the command runs once per epoch, clean's and average-baseline's
     * databases live side by side on that one instance while the modes' slices alternate, and each mode's slices
     * read exactly its run phase's rows there (the instance's own table statistics).
     */
    @Test
    void inSlicesTheFreshModesShareOneInstancePerEpoch() throws Exception {
        Path state = tmp.resolve("fresh-slices-state");
        int port = FreePorts.belowEphemeral();
        String instanceUrl = "jdbc:mariadb://127.0.0.1:" + port + "/ivsbench";
        String command =
                "IVS_STATE_DIR='" + state + "' IVS_MARIADB_BASE_PORT=" + port + " scripts/mariadb.sh restart-fresh";
        BenchmarkConfig config = RunHarness.config(
                tmp,
                "<parameters>" + RunHarness.mariadbConnection()
                        + "<terminals>1</terminals><randomSeed>7</randomSeed><batchsize>64</batchsize>"
                        + "<recordcount>200</recordcount><fieldlength>100</fieldlength><table>" + TABLE + "</table>"
                        + "<transactiontypes><transactiontype><name>ReadRecord</name></transactiontype></transactiontypes>"
                        + "<works><work><time>1</time><rate>unlimited</rate><weights>100</weights></work></works>"
                        + "<experiment><epochs>2</epochs><modes>main,clean,average-baseline</modes><slices>2</slices>"
                        + "<extend><count>300</count></extend><run><count>" + RUN_READS + "</count></run>"
                        + "<fresh><command>" + command + "</command><url>" + instanceUrl + "</url></fresh>"
                        + "</experiment></parameters>");
        Path parent = Files.createTempDirectory(tmp, "results");
        Map<String, Long> readAtReady = new HashMap<>();
        List<String> checked = new ArrayList<>();
        ExperimentListener listener = new ExperimentListener() {
            @Override
            public void freshReady(int epoch, Mode mode, Target fresh, String table) {
                try {
                    TableStatistics.userstat(instanceUrl, true);
                    readAtReady.put(
                            epoch + "/" + mode.label(), TableStatistics.rowsRead(instanceUrl, databaseOf(mode), TABLE));
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            }

            @Override
            public void beforeDrop(int epoch, Mode mode, Target fresh, String table) {
                try {
                    long read = TableStatistics.rowsRead(instanceUrl, databaseOf(mode), TABLE)
                            - readAtReady.get(epoch + "/" + mode.label());
                    assertEquals(RUN_READS, read, "rows the mode's two slices read on the fresh instance");
                    // Both fresh databases are on the instance until the epoch's slices are all done.
                    try (Connection c = DriverManager.getConnection(
                                    instanceUrl, TestServers.mariadbUser(), TestServers.mariadbPassword());
                            ResultSet rs = c.createStatement()
                                    .executeQuery("SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME"
                                            + " IN ('" + FreshDatabases.CLEAN + "','" + FreshDatabases.AVERAGE
                                            + "')")) {
                        rs.next();
                        assertEquals(2, rs.getInt(1), "fresh databases on the instance at epoch " + epoch);
                    }
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
                checked.add(epoch + "/" + mode.label());
            }
        };
        Path dir;
        try {
            dir = ExperimentRuns.run(config, listener, parent).dir();
        } finally {
            stopInstance(state);
        }
        assertEquals(List.of("1/clean", "1/average-baseline", "2/clean", "2/average-baseline"), checked);
        String log = Files.readString(dir.resolve(FreshServer.LOG));
        assertEquals(2, log.lines().filter(l -> l.startsWith("== ")).count(), log);
        for (int epoch = 1; epoch <= 2; epoch++) {
            Path epochDir = dir.resolve(String.format("epoch-%03d", epoch));
            List<Long> pids = new ArrayList<>();
            for (String mode : List.of("clean", "average-baseline")) {
                for (String part : List.of("run-01", "run-02")) {
                    pids.add(serverPid(epochDir.resolve(mode).resolve(part).resolve("summary.json")));
                }
            }
            assertEquals(1, pids.stream().distinct().count(), "one instance per epoch: " + pids);
        }
        assertEquals(
                1 + 2 * 2 * 3,
                Files.readAllLines(dir.resolve(EpochsCsv.SLICES_FILE)).size());
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
