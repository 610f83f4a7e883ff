package org.ivsbench.faults;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.ivsbench.testsupport.CliArgs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The benchmark process is told to stop (SIGTERM from a scheduler or `kill`, SIGINT from Ctrl-C) three
 * seconds into a 30 s phase. It must exit within seconds with the signal's exit code (128 + signal: 143,
 * 130), and what was measured so far must be on disk and consistent: summary.json "complete": false,
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
        long stoppedAfterMs;
        int exit;
        try {
            cli.awaitOutput("Results: ", 60);
            assertFalse(
                    ignoresSigint(cli.pid()),
                    "the CLI was started with SIGINT ignored (a background job's"
                            + " disposition): CliProcess must reset it, or Ctrl-C could not be tested");
            Thread.sleep(3000);
            long t0 = System.nanoTime();
            if (signal.equals("TERM")) {
                cli.process().destroy(); // SIGTERM
            } else {
                cli.signal(signal);
            }
            exit = cli.waitFor(20);
            stoppedAfterMs = (System.nanoTime() - t0) / 1_000_000;
        } finally {
            cli.destroyIfAlive();
        }
        assertEquals(expectedExit, exit, "exit code; stderr: " + cli.stderr());
        assertTrue(stoppedAfterMs < 5000, "exited " + stoppedAfterMs + " ms after SIG" + signal);

        Results results = new Results(cli.resultsDir());
        results.assertFilesPresent();
        JsonNode summary = results.summary();
        assertFalse(summary.get("complete").asBoolean(), "complete");
        assertTrue(summary.get("interrupted").asBoolean(), "interrupted");
        assertTrue(summary.get("endMs").asLong() >= summary.get("startMs").asLong());
        JsonNode phase = summary.get("phases").get(0);
        long operations = phase.get("operations").asLong();
        // ~3 s at 1000/s; the bound only says "what ran was kept", not how fast SQLite is.
        assertTrue(operations > 500, "operations measured before the signal: " + operations);
        assertTrue(
                phase.get("measuredSeconds").asDouble() < 10,
                "the phase ended at the signal: " + phase.get("measuredSeconds"));
        results.assertSummaryMatchesSamples(); // also checks every samples.csv line has all columns
        List<Results.Row> rows = results.allRows();
        assertEquals(operations, rows.stream().mapToLong(Results.Row::total).sum());
        assertTrue(Files.readString(results.dir().resolve("samples.csv")).endsWith("\n"), "last line complete");
        assertTrue(Files.size(results.dir().resolve("latency.hlog")) > 0, "latency.hlog written");
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
