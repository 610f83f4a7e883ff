package org.ivsbench.faults;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.ivsbench.testsupport.Await;
import org.ivsbench.testsupport.CliArgs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The benchmark process is told to stop (SIGTERM from a scheduler or `kill`, SIGINT from Ctrl-C) once two
 * statistics windows of a 30 s phase are on disk. It must exit with the signal's exit code (128 + signal: 143,
 * 130), the phase cut short, and what was measured so far must be on disk and consistent: summary.json "complete": false,
 * "interrupted": true, operations > 0 and equal to the sum over samples.csv's ALL rows, samples.csv well
 * formed to its last line.
 */
class ClientSignalTest {
    @TempDir
    Path tmp;

    private String config(Path db) {
        return "<parameters><type>SQLITE</type><url>jdbc:sqlite:" + db.toAbsolutePath() + "</url>"
                + "<terminals>1</terminals><randomSeed>5</randomSeed><recordcount>200</recordcount>"
                + "<monitor><enabled>false</enabled></monitor>"
                + "<transactiontypes><transactiontype><name>ReadRecord</name></transactiontype>"
                + "<transactiontype><name>ExtendRecord</name></transactiontype></transactiontypes>"
                + "<works><work><time>30</time><rate>1000</rate><weights>50,50</weights>"
                + "<distribution>uniform</distribution></work></works></parameters>";
    }

    @ParameterizedTest(name = "SIG{0} -> exit {1}")
    @CsvSource({"TERM, 143", "INT, 130"})
    void signalMidPhaseWritesWhatWasMeasured(String signal, int expectedExit) throws Exception {
        Path cfg = tmp.resolve("signal.xml");
        Files.writeString(cfg, config(tmp.resolve("signal.db")));
        CliProcess cli = CliProcess.start(tmp, CliArgs.createLoadExecute(cfg, tmp.resolve("results")));
        long exitSeenMs;
        int exit;
        try {
            cli.awaitOutput("Results: ", 60);
            assertFalse(
                    ignoresSigint(cli.pid()),
                    "the CLI was started with SIGINT ignored (a background job's"
                            + " disposition): CliProcess must reset it, or Ctrl-C could not be tested");
            // Mid-phase by what the run wrote, not by the wall clock: two statistics windows are on disk.
            awaitWindows(cli, 2);
            assertTrue(cli.process().isAlive(), "still running when signalled");
            if (signal.equals("TERM")) {
                cli.process().destroy(); // SIGTERM
            } else {
                cli.signal(signal);
            }
            exit = cli.waitFor(60);
            exitSeenMs = System.currentTimeMillis();
        } finally {
            cli.destroyIfAlive();
        }
        // Only the signal gives these codes: the phase was cut short, not finished.
        assertEquals(expectedExit, exit, "exit code; stderr: " + cli.stderr());

        Results results = new Results(cli.resultsDir());
        results.assertFilesPresent();
        JsonNode summary = results.summary();
        assertFalse(summary.get("complete").asBoolean(), "complete");
        assertTrue(summary.get("interrupted").asBoolean(), "interrupted");
        assertTrue(summary.get("endMs").asLong() >= summary.get("startMs").asLong());
        JsonNode phase = summary.get("phases").get(0);
        long operations = phase.get("operations").asLong();
        // What ran was kept (and it is what samples.csv counts, below); how much ran is SQLite's and the box's.
        assertTrue(operations > 0, "operations measured before the signal: " + operations);
        assertTrue(
                phase.get("measuredSeconds").asDouble() < 30,
                "the 30 s phase ended early: " + phase.get("measuredSeconds"));
        // It ended at the signal: before the test saw the process gone.
        long phaseEndMs = phase.get("endMs").asLong();
        assertTrue(phaseEndMs <= exitSeenMs, "phase end " + phaseEndMs + " after the exit seen at " + exitSeenMs);
        results.assertSummaryMatchesSamples(); // also checks every samples.csv line has all columns
        List<Results.Row> rows = results.allRows();
        assertEquals(operations, rows.stream().mapToLong(Results.Row::total).sum());
        assertTrue(Files.readString(results.dir().resolve("samples.csv")).endsWith("\n"), "last line complete");
        assertTrue(Files.size(results.dir().resolve("latency.hlog")) > 0, "latency.hlog written");
    }

    /**
     * Until the run's samples.csv has {@code n} windows (rows of type ALL). The limit only ends a hung test: it
     * is far from anything a slow machine needs for two one-second windows.
     */
    private static void awaitWindows(CliProcess cli, int n) throws Exception {
        Path samples = cli.resultsDir().resolve("samples.csv");
        Await.until(
                n + " windows in samples.csv",
                Duration.ofSeconds(120),
                () -> {
                    long w = windows(samples);
                    if (w < n && !cli.process().isAlive()) {
                        throw new AssertionError("the CLI exited at " + w + " windows; stderr: " + cli.stderr());
                    }
                    return w;
                },
                w -> w >= n);
    }

    private static long windows(Path samples) throws Exception {
        if (!Files.exists(samples)) {
            return 0;
        }
        return Files.readAllLines(samples).stream()
                .map(l -> l.split(",", -1))
                .filter(f -> f.length > 3 && f[3].equals("ALL"))
                .count();
    }

    /** Bit 1 of SigIgn in /proc/PID/status is SIGINT (signal 2). */
    private static boolean ignoresSigint(long pid) throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
            if (line.startsWith("SigIgn:")) {
                return (Long.parseLong(line.substring(7).trim(), 16) & (1L << 1)) != 0;
            }
        }
        throw new AssertionError("no SigIgn line in /proc/" + pid + "/status");
    }
}
