package org.ivsbench.faults;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.ivsbench.testsupport.RunHarness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The database server dies (kill -9) in the middle of a time phase and comes back a second later. The run
 * must count the operations that failed as outcome error "connection lost" under their own transaction
 * type, get its sessions back, measure successes again after the restart, end the phase on time and leave
 * a complete results folder with exit code 0: a measured outage is a result, not a failed run.
 *
 * <p>reconnectOnConnectionFailure=true: a terminal whose connection broke records the failed operation at
 * once and then waits for the server with backoff (100 ms doubling to 500 ms, up to 60 s), so only the
 * operations in flight at the crash fail, in the windows of the outage, and the terminals are back within
 * half a second of the restart.
 * false: the terminal does not wait; every operation tries one fresh connection and fails fast while the
 * server is away (many errors, each counted), and succeeds again as soon as the server is back.
 */
class ServerCrashTest {
    private static final int TERMINALS = 2;

    @TempDir
    Path tmp;

    private final MariaDbServer server = MariaDbServer.fromEnvironment();

    @AfterEach
    void serverIsRunningForTheNextTest() throws Exception {
        server.start(); // idempotent; a failed assertion must not leave the server down
    }

    private String config(boolean reconnect) {
        return "<parameters>" + RunHarness.mariadbConnection()
                + "<reconnectOnConnectionFailure>" + reconnect + "</reconnectOnConnectionFailure>"
                + "<terminals>" + TERMINALS + "</terminals><randomSeed>11</randomSeed><recordcount>200</recordcount>"
                + "<table>faults_crash</table><monitor><enabled>false</enabled></monitor>"
                + "<transactiontypes><transactiontype><name>ReadRecord</name></transactiontype>"
                + "<transactiontype><name>ExtendRecord</name></transactiontype></transactiontypes>"
                + "<works><work><time>8</time><rate>unlimited</rate><weights>50,50</weights>"
                + "<distribution>uniform</distribution></work></works></parameters>";
    }

    @ParameterizedTest(name = "reconnectOnConnectionFailure={0}")
    @ValueSource(booleans = {true, false})
    void serverKilledMidPhaseIsMeasuredAndSurvived(boolean reconnect) throws Exception {
        Path cfg = tmp.resolve("crash.xml");
        Files.writeString(cfg, config(reconnect));
        CliProcess cli = CliProcess.start(
                tmp,
                "-b",
                "ycsbivs",
                "-c",
                cfg.toString(),
                "--create",
                "--load",
                "--execute",
                "-d",
                tmp.resolve("results").toString());
        long killedMs;
        long restartedMs;
        try {
            cli.awaitOutput("Results: ", 60); // the phase starts now
            Thread.sleep(2000);
            try {
                killedMs = System.currentTimeMillis();
                server.kill9();
                Thread.sleep(1000);
            } finally {
                server.start();
            }
            restartedMs = System.currentTimeMillis();
            assertEquals(0, cli.waitFor(90), "exit code; stderr: " + cli.stderr());
        } finally {
            cli.destroyIfAlive();
        }

        Results results = new Results(cli.resultsDir());
        results.assertFilesPresent();
        results.assertSummaryMatchesSamples();
        JsonNode summary = results.summary();
        assertTrue(summary.get("complete").asBoolean(), "complete");
        assertFalse(summary.get("interrupted").asBoolean(), "interrupted");
        JsonNode phase = summary.get("phases").get(0);
        long errors = phase.get("counts").get("error").asLong();
        assertTrue(errors > 0, "the operations broken by the crash are errors: " + phase.get("counts"));

        // Every error is attributed to its transaction type with the reason, and nothing else went wrong.
        long lost = 0;
        for (String type : List.of("ReadRecord", "ExtendRecord")) {
            JsonNode t = phase.get("transactions").get(type);
            long typeErrors = t.get("counts").get("error").asLong();
            long typeLost = t.get("errors").path("connection lost").asLong(0);
            assertEquals(typeErrors, typeLost, type + ": every error is 'connection lost': " + t.get("errors"));
            lost += typeLost;
        }
        assertEquals(errors, lost);
        if (reconnect) {
            assertTrue(
                    errors <= 2L * TERMINALS,
                    "with reconnect only operations in flight at the crash fail"
                            + " (terminals wait for the server with backoff): " + errors);
        } else {
            assertTrue(
                    errors > 10L * TERMINALS,
                    "without reconnect the terminals fail fast while the server is" + " away: " + errors);
        }

        // Successes before the crash and again after the restart (windows that start after it).
        List<Results.Row> all = results.allRows();
        assertTrue(
                all.stream().anyMatch(r -> r.timeMs() + r.windowMs() <= killedMs && r.ok() > 0),
                "successes before the crash: " + all);
        if (reconnect) {
            // Recorded when they happened (at the crash), not when the terminal got its connection back.
            List<Results.Row> errorRows =
                    all.stream().filter(r -> r.error() > 0).toList();
            assertTrue(
                    errorRows.stream().allMatch(r -> r.timeMs() + r.windowMs() > killedMs && r.timeMs() < restartedMs),
                    "errors in the windows of the outage (killed " + killedMs + ", restarted " + restartedMs + "): "
                            + errorRows);
        }
        List<Results.Row> after =
                all.stream().filter(r -> r.timeMs() >= restartedMs).toList();
        assertFalse(after.isEmpty(), "windows after the restart (restart at " + restartedMs + "): " + all);
        assertTrue(after.stream().allMatch(r -> r.ok() > 0), "every window after the restart has successes: " + after);
        assertTrue(
                after.stream().mapToLong(Results.Row::error).sum() == 0 || !reconnect,
                "no errors after the restart: " + after);
        // The phase ended on time: the crash did not stretch it.
        double seconds = phase.get("measuredSeconds").asDouble();
        assertTrue(Math.abs(seconds - 8.0) < 0.5, "measuredSeconds " + seconds);
    }
}
