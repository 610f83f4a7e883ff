package org.ivsbench.faults;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.ivsbench.db.cassandra.CassandraFixture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Cassandra is killed (kill -9) in the middle of a time phase and started again (its restart takes seconds: a JVM
 * and a commit log replay). As with MariaDB (ServerCrashTest): the failed operations are ERROR "connection lost"
 * under their own transaction type, the terminals get back to work after the restart, the phase ends on time and
 * the results folder is complete with exit code 0.
 *
 * <p>With reconnectOnConnectionFailure=true a terminal waits while the driver sees no node up, so the errors fall
 * in the windows of the outage; with false every operation fails fast while the node is away.
 */
class CassandraCrashTest {
    private static final int TERMINALS = 2;
    private static final int PHASE_SECONDS = 25;

    @TempDir
    Path tmp;

    private final CassandraServer server = CassandraServer.fromEnvironment();

    @AfterEach
    void serverIsRunningForTheNextTest() throws Exception {
        server.start(); // idempotent; a failed assertion must not leave the server down
    }

    private String config(boolean reconnect) {
        return "<parameters>" + CassandraFixture.connection()
                + "<reconnectOnConnectionFailure>" + reconnect + "</reconnectOnConnectionFailure>"
                + "<terminals>" + TERMINALS + "</terminals><randomSeed>11</randomSeed><recordcount>200</recordcount>"
                + "<table>faults_crash</table><monitor><enabled>true</enabled><interval>1000</interval></monitor>"
                + "<transactiontypes><transactiontype><name>ReadRecord</name></transactiontype>"
                + "<transactiontype><name>ExtendRecord</name></transactiontype></transactiontypes>"
                + "<works><work><time>" + PHASE_SECONDS + "</time><rate>unlimited</rate><weights>50,50</weights>"
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
            cli.awaitOutput("Results: ", 120); // the phase starts now
            Thread.sleep(2000);
            try {
                killedMs = System.currentTimeMillis();
                server.kill9();
            } finally {
                server.start(); // returns when the native port listens again
            }
            restartedMs = System.currentTimeMillis();
            assertEquals(0, cli.waitFor(120), "exit code; stderr: " + cli.stderr());
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

        long lost = 0;
        for (String type : List.of("ReadRecord", "ExtendRecord")) {
            JsonNode t = phase.get("transactions").get(type);
            long typeErrors = t.get("counts").get("error").asLong();
            long typeLost = t.get("errors").path("connection lost").asLong(0);
            assertEquals(
                    typeErrors,
                    typeLost,
                    type + ": every error is 'connection lost': " + t.get("errors") + "; stderr: " + cli.stderr());
            lost += typeLost;
        }
        assertEquals(errors, lost);

        List<Results.Row> all = results.allRows();
        assertTrue(
                all.stream().anyMatch(r -> r.timeMs() + r.windowMs() <= killedMs && r.ok() > 0),
                "successes before the crash: " + all);
        if (reconnect) {
            List<Results.Row> errorRows =
                    all.stream().filter(r -> r.error() > 0).toList();
            assertTrue(
                    errorRows.stream()
                            .allMatch(r -> r.timeMs() + r.windowMs() > killedMs && r.timeMs() < restartedMs + 2000),
                    "errors in the windows of the outage (killed " + killedMs + ", restarted " + restartedMs + "): "
                            + errorRows);
        } else {
            assertTrue(
                    errors > 10L * TERMINALS,
                    "without reconnect the terminals fail fast while the server is" + " away: " + errors);
        }
        // Back to work: every whole window from two seconds after the restart has successes and no errors (the
        // driver notices the node within a second of it listening again).
        List<Results.Row> after =
                all.stream().filter(r -> r.timeMs() >= restartedMs + 2000).toList();
        assertFalse(after.isEmpty(), "windows after the restart (restart at " + restartedMs + "): " + all);
        assertTrue(after.stream().allMatch(r -> r.ok() > 0), "every window after the restart has successes: " + after);
        assertEquals(0, after.stream().mapToLong(Results.Row::error).sum(), "no errors after the restart: " + after);
        double seconds = phase.get("measuredSeconds").asDouble();
        assertTrue(Math.abs(seconds - PHASE_SECONDS) < 0.5, "measuredSeconds " + seconds);
    }
}
