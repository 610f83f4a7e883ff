package org.ivsbench.faults;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import org.ivsbench.testsupport.CliArgs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the crash tests of every server share (ServerCrashTest, PostgresCrashTest, CassandraCrashTest): a CLI run
 * of a 50:50 ReadRecord/ExtendRecord time phase whose server is killed (kill -9) two seconds in and started
 * again, then what its results folder must show. Each server's test says how long its restart takes and how
 * soon its terminals are back.
 */
final class CrashScenario {
    /** kill -9 or start of the test's server. */
    interface ServerAction {
        void run() throws Exception;
    }

    final Results results;
    final JsonNode phase;
    final long killedMs;
    final long restartedMs;
    final long errors;
    private final String stderr;

    private CrashScenario(Results results, long killedMs, long restartedMs, String stderr) throws Exception {
        this.results = results;
        this.phase = results.summary().get("phases").get(0);
        this.killedMs = killedMs;
        this.restartedMs = restartedMs;
        this.errors = phase.get("counts").get("error").asLong();
        this.stderr = stderr;
    }

    /** The phase's transaction types, in the config's order. */
    static String phaseXml(int terminals, String table, int seconds, boolean reconnect, String monitor) {
        return "<reconnectOnConnectionFailure>" + reconnect + "</reconnectOnConnectionFailure>"
                + "<terminals>" + terminals + "</terminals><randomSeed>11</randomSeed><recordcount>200</recordcount>"
                + "<table>" + table + "</table><monitor>" + monitor + "</monitor>"
                + "<transactiontypes><transactiontype><name>ReadRecord</name></transactiontype>"
                + "<transactiontype><name>ExtendRecord</name></transactiontype></transactiontypes>"
                + "<works><work><time>" + seconds + "</time><rate>unlimited</rate><weights>50,50</weights>"
                + "<distribution>uniform</distribution></work></works>";
    }

    /**
     * Runs the CLI on {@code configXml}; once its phase runs (waiting up to {@code startSeconds}), kills the
     * server, waits {@code downMs}, starts it again; the run must exit 0 within {@code exitSeconds}.
     */
    static CrashScenario run(
            Path tmp,
            String configXml,
            ServerAction kill9,
            ServerAction start,
            long downMs,
            int startSeconds,
            int exitSeconds)
            throws Exception {
        Path cfg = tmp.resolve("crash.xml");
        Files.writeString(cfg, configXml);
        CliProcess cli = CliProcess.start(tmp, CliArgs.createLoadExecute(cfg, tmp.resolve("results")));
        long killedMs;
        long restartedMs;
        try {
            cli.awaitOutput("Results: ", startSeconds); // the phase starts now
            Thread.sleep(2000);
            try {
                killedMs = System.currentTimeMillis();
                kill9.run();
                Thread.sleep(downMs);
            } finally {
                start.run();
            }
            restartedMs = System.currentTimeMillis();
            assertEquals(0, cli.waitFor(exitSeconds), "exit code; stderr: " + cli.stderr());
        } finally {
            cli.destroyIfAlive();
        }
        return new CrashScenario(new Results(cli.resultsDir()), killedMs, restartedMs, cli.stderr());
    }

    /**
     * The folder is complete, the summary equals the samples, and the operations broken by the crash are errors
     * "connection lost" under their own transaction type, nothing else.
     */
    CrashScenario assertCompleteWithEveryErrorConnectionLost() throws Exception {
        results.assertFilesPresent();
        results.assertSummaryMatchesSamples();
        JsonNode summary = results.summary();
        assertTrue(summary.get("complete").asBoolean(), "complete");
        assertFalse(summary.get("interrupted").asBoolean(), "interrupted");
        assertTrue(errors > 0, "the operations broken by the crash are errors: " + phase.get("counts"));
        long lost = 0;
        for (String type : List.of("ReadRecord", "ExtendRecord")) {
            JsonNode t = phase.get("transactions").get(type);
            long typeErrors = t.get("counts").get("error").asLong();
            long typeLost = t.get("errors").path("connection lost").asLong(0);
            assertEquals(
                    typeErrors,
                    typeLost,
                    type + ": every error is 'connection lost': " + t.get("errors") + "; stderr: " + stderr);
            lost += typeLost;
        }
        assertEquals(errors, lost);
        return this;
    }

    /**
     * With reconnect only the operations in flight at the crash fail (terminals wait for the server with backoff),
     * recorded in the windows of the outage (up to {@code graceMs} after the restart); without it the terminals
     * fail fast while the server is away.
     */
    CrashScenario assertErrorsFitTheReconnectSetting(
            boolean reconnect, int terminals, boolean fewWithReconnect, long graceMs) throws Exception {
        List<Results.Row> all = results.allRows();
        if (reconnect) {
            if (fewWithReconnect) {
                assertTrue(
                        errors <= 2L * terminals,
                        "with reconnect only operations in flight at the crash fail"
                                + " (terminals wait for the server with backoff): " + errors);
            }
            // Recorded when they happened (at the crash), not when the terminal got its connection back.
            List<Results.Row> errorRows =
                    all.stream().filter(r -> r.error() > 0).toList();
            assertTrue(
                    errorRows.stream()
                            .allMatch(r -> r.timeMs() + r.windowMs() > killedMs && r.timeMs() < restartedMs + graceMs),
                    "errors in the windows of the outage (killed " + killedMs + ", restarted " + restartedMs + "): "
                            + errorRows);
        } else {
            assertTrue(
                    errors > 10L * terminals,
                    "without reconnect the terminals fail fast while the server is away: " + errors);
        }
        return this;
    }

    /**
     * Successes before the crash, and in every window from {@code graceMs} after the restart (with no errors there
     * when {@code noErrorsAfter}); the phase ended on time: the crash did not stretch it.
     */
    CrashScenario assertBackToWorkAndOnTime(long graceMs, boolean noErrorsAfter, double phaseSeconds) throws Exception {
        List<Results.Row> all = results.allRows();
        assertTrue(
                all.stream().anyMatch(r -> r.timeMs() + r.windowMs() <= killedMs && r.ok() > 0),
                "successes before the crash: " + all);
        List<Results.Row> after =
                all.stream().filter(r -> r.timeMs() >= restartedMs + graceMs).toList();
        assertFalse(after.isEmpty(), "windows after the restart (restart at " + restartedMs + "): " + all);
        assertTrue(after.stream().allMatch(r -> r.ok() > 0), "every window after the restart has successes: " + after);
        if (noErrorsAfter) {
            assertEquals(
                    0, after.stream().mapToLong(Results.Row::error).sum(), "no errors after the restart: " + after);
        }
        double seconds = phase.get("measuredSeconds").asDouble();
        assertTrue(Math.abs(seconds - phaseSeconds) < 0.5, "measuredSeconds " + seconds);
        return this;
    }
}
