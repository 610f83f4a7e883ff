package org.ivsbench.monitor;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.bench.BenchmarkModule;
import org.ivsbench.bench.LoadProgress;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.db.Target;
import org.ivsbench.db.Targets;
import org.ivsbench.run.MeasuredRun;
import org.ivsbench.stats.RunInfo;
import org.ivsbench.testsupport.Await;
import org.ivsbench.testsupport.RunHarness;
import org.ivsbench.testsupport.TestServers;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A blocker the DBA must be able to name: while a rate-limited read/extend phase runs, another connection holds
 * every row FOR UPDATE for 8 s. The extends pile up behind it, the run's throughput collapses, and the step
 * watch's one snapshot names the blocking transaction by the blocker's own CONNECTION_ID().
 */
class ActivityWatchMariaDbTest {
    private static final String TABLE = "activity_blocker";

    @TempDir
    Path dir;

    @Test
    void theSnapshotAtTheStepNamesTheBlockingTransaction() throws Exception {
        BenchmarkModule module = RunHarness.module();
        BenchmarkConfig config = RunHarness.config(
                dir,
                "<parameters>" + RunHarness.mariadbConnection()
                        + "<terminals>4</terminals><randomSeed>3</randomSeed><recordcount>200</recordcount>"
                        + "<engine>InnoDB</engine><table>" + TABLE + "</table><maxfieldlength>400</maxfieldlength>"
                        + "<transactiontypes><transactiontype><name>ReadRecord</name></transactiontype>"
                        + "<transactiontype><name>ExtendRecord</name></transactiontype></transactiontypes>"
                        + "<works><work><time>24</time><rate>1500</rate><weights>70,30</weights>"
                        + "<distribution>uniform</distribution></work></works></parameters>");
        Path runDir = Files.createDirectories(dir.resolve("run"));
        long blockerId;
        try (Target target = Targets.open(config.target())) {
            module.create(config, target);
            module.load(config, target, LoadProgress.NONE);
            RunInfo info = new RunInfo(
                    "test",
                    module.name(),
                    Map.of(),
                    "sha256:test",
                    config.randomSeed(),
                    config.terminals(),
                    1,
                    config.phases());
            try (MeasuredRun run = new MeasuredRun(module, config, target, runDir, info)) {
                Thread runner = new Thread(() -> {
                    try {
                        run.execute();
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
                runner.start();
                Await.until(
                        "the run's phase to start (or the run to end)",
                        Duration.ofSeconds(120),
                        () -> run.manager().currentPhaseIndex(),
                        phase -> phase >= 0 || !runner.isAlive());
                // A steady level for the detector first: as many full windows of the phase as it keeps as history.
                awaitFullWindows(runDir.resolve("samples.csv"), StepDetector.HISTORY, runner);
                blockerId = holdEveryRow(8000);
                runner.join(Duration.ofMinutes(3).toMillis());
                assertFalse(runner.isAlive(), "the 24 s run did not end within 3 minutes");
            }
        }

        Path activity = runDir.resolve("activity.jsonl");
        assertTrue(Files.exists(activity), "no step was detected: no activity.jsonl");
        ObjectMapper json = new ObjectMapper();
        List<Long> blockers = new ArrayList<>();
        for (String line : Files.readAllLines(activity)) {
            JsonNode entry = json.readTree(line);
            assertFalse(entry.path("trigger").asText().isEmpty(), line);
            assertNull(entry.path("snapshot").get("lockWaitsNote"), line);
            for (JsonNode wait : entry.path("snapshot").path("lockWaits")) {
                blockers.add(wait.path("blocking").path("threadId").asLong());
            }
        }
        assertTrue(
                blockers.contains(blockerId),
                "blocker " + blockerId + " not named; lock waits name " + blockers + " in "
                        + Files.readString(activity));

        MonitorCsv monitor = new MonitorCsv(runDir.resolve("monitor.csv"));
        String column = monitor.header.contains("db.Innodb_row_lock_current_waits")
                ? "db.Innodb_row_lock_current_waits"
                : "db.Innodb_row_lock_waits";
        double most = monitor.rows.stream()
                .mapToDouble(r -> MonitorCsv.num(r, column))
                .filter(v -> !Double.isNaN(v))
                .max()
                .orElse(0);
        assertTrue(most > 0, column + " never rose in monitor.csv");
    }

    /**
     * Waits until samples.csv holds {@code count} full windows (measured_ms = window_ms, the windows the step
     * detector takes as levels) of the phase, or the run ended.
     */
    private static void awaitFullWindows(Path samples, int count, Thread runner) throws Exception {
        Await.until(
                count + " full windows of the phase in samples.csv (or the run to end)",
                Duration.ofSeconds(120),
                () -> fullWindows(samples),
                full -> full >= count || !runner.isAlive());
    }

    private static long fullWindows(Path samples) throws Exception {
        List<String> lines = Files.exists(samples) ? Files.readAllLines(samples) : List.of();
        if (lines.isEmpty()) {
            return 0;
        }
        List<String> header = List.of(lines.get(0).split(","));
        int type = header.indexOf("type");
        int window = header.indexOf("window_ms");
        int measured = header.indexOf("measured_ms");
        return lines.stream()
                .skip(1)
                .map(l -> l.split(",", -1))
                .filter(c -> c.length == header.size() && c[type].equals("ALL") && c[window].equals(c[measured]))
                .count();
    }

    /** Locks every row of the table from another connection for {@code ms}; returns that connection's id. */
    private static long holdEveryRow(long ms) throws Exception {
        try (Connection c = DriverManager.getConnection(
                        TestServers.mariadbUrl(), TestServers.mariadbUser(), TestServers.mariadbPassword());
                Statement st = c.createStatement()) {
            long id;
            try (ResultSet rs = st.executeQuery("SELECT CONNECTION_ID()")) {
                rs.next();
                id = rs.getLong(1);
            }
            c.setAutoCommit(false);
            try (ResultSet rs = st.executeQuery("SELECT * FROM " + TABLE + " FOR UPDATE")) {
                while (rs.next()) {
                    // every row read is locked until the rollback
                }
            }
            Thread.sleep(ms);
            c.rollback();
            return id;
        }
    }
}
