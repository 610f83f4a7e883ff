package org.ivsbench.faults;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;

import org.ivsbench.testsupport.CliArgs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the crash tests of every server share (ServerCrashTest, PostgresCrashTest, CassandraCrashTest): a CLI run
 * against a server instance of the test's own, whose server is killed (kill -9) in its first phase and started
 * again, then what its results folder must show.
 *
 * <p>The run has two phases of a 50:50 ReadRecord/ExtendRecord mix. The first, "crash", is a time phase: the
 * server dies in it as soon as samples.csv (written while the run goes on) shows a window with successes, and the
 * test starts it again at once; the phase must end on time. The second, "after", is a count phase: it ends when its
 * terminals have completed its operations, so with reconnect it waits for the server however long the restart takes
 * (bounded by the test's exit wait), and nothing depends on how fast the box is. Without reconnect a terminal does
 * not wait for the server: the restart must be over before the crash phase ends (its length is that bound, several
 * times a restart's usual length), or the count phase would be used up by fast failures; the test checks that
 * premise and fails naming it.
 */
final class CrashScenario {
    /** kill -9 or start of the test's server. */
    interface ServerAction {
        void run() throws Exception;
    }

    static final int CRASH = 0;
    static final int AFTER = 1;
    /** The operations of the count phase after the crash phase. */
    static final int AFTER_COUNT = 400;

    final Results results;
    final JsonNode crash;
    final JsonNode after;
    final long killedMs;
    final long restartedMs;
    final long errors;
    private final String stderr;

    private CrashScenario(Results results, long killedMs, long restartedMs, String stderr) throws Exception {
        this.results = results;
        this.crash = results.summary().get("phases").get(CRASH);
        this.after = results.summary().get("phases").get(AFTER);
        this.killedMs = killedMs;
        this.restartedMs = restartedMs;
        this.errors = crash.get("counts").get("error").asLong()
                + after.get("counts").get("error").asLong();
        this.stderr = stderr;
    }

    /** The crash phase ({@code seconds} long) and the count phase after it; transaction types in the config's order. */
    static String phaseXml(int terminals, String table, int seconds, boolean reconnect, String monitor) {
        String types = "<weights>50,50</weights><distribution>uniform</distribution>";
        return "<reconnectOnConnectionFailure>" + reconnect + "</reconnectOnConnectionFailure>"
                + "<terminals>" + terminals + "</terminals><randomSeed>11</randomSeed><recordcount>200</recordcount>"
                + "<table>" + table + "</table><monitor>" + monitor + "</monitor>"
                + "<transactiontypes><transactiontype><name>ReadRecord</name></transactiontype>"
                + "<transactiontype><name>ExtendRecord</name></transactiontype></transactiontypes>"
                + "<works><work><name>crash</name><time>" + seconds + "</time><rate>unlimited</rate>" + types
                + "</work>"
                + "<work><name>after</name><count>" + AFTER_COUNT + "</count><rate>unlimited</rate>" + types
                + "</work></works>";
    }

    /**
     * Runs the CLI on {@code configXml}; once its crash phase has a window with successes (waiting up to
     * {@code startSeconds} for it), kills the server, waits {@code downMs}, starts it again; the run must exit 0
     * within {@code exitSeconds} of the restart.
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
            cli.awaitOutput("Results: ", startSeconds);
            awaitSuccesses(cli, startSeconds);
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
        CrashScenario scenario = new CrashScenario(new Results(cli.resultsDir()), killedMs, restartedMs, cli.stderr());
        System.out.println("crash scenario: killed "
                + (killedMs - scenario.crash.get("startMs").asLong())
                + " ms into the crash phase, back after " + (restartedMs - killedMs) + " ms, crash phase ended "
                + (scenario.crash.get("endMs").asLong() - restartedMs) + " ms after the restart; errors "
                + scenario.errors + "; after phase " + scenario.after.get("counts"));
        return scenario;
    }

    /** Waits until samples.csv, as the running CLI writes it, has a crash-phase window with successes. */
    private static void awaitSuccesses(CliProcess cli, int seconds) throws Exception {
        Path samples = cli.resultsDir().resolve("samples.csv");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        List<String> seen = List.of();
        while (System.nanoTime() < deadline && cli.process().isAlive()) {
            if (Files.isRegularFile(samples)) {
                seen = Files.readAllLines(samples, StandardCharsets.UTF_8);
                for (String line : seen) {
                    String[] c = line.split(",", -1);
                    // time_ms,window_ms,phase,type,ok,... (a line still being written has fewer columns)
                    if (c.length > 4
                            && c[2].equals(Integer.toString(CRASH))
                            && c[3].equals("ALL")
                            && c[4].matches("[1-9][0-9]*")) {
                        return;
                    }
                }
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no crash-phase window with successes in " + samples + " within " + seconds + " s"
                + (cli.process().isAlive() ? "" : " (the CLI exited)") + ": " + seen + "\nstdout: " + cli.stdout()
                + "\nstderr: " + cli.stderr());
    }

    /**
     * The folder is complete, the summary equals the samples, and the operations broken by the crash are errors
     * "connection lost" under their own transaction type, nothing else, in both phases.
     */
    CrashScenario assertCompleteWithEveryErrorConnectionLost() throws Exception {
        results.assertFilesPresent();
        results.assertSummaryMatchesSamples();
        JsonNode summary = results.summary();
        assertTrue(summary.get("complete").asBoolean(), "complete");
        assertFalse(summary.get("interrupted").asBoolean(), "interrupted");
        assertTrue(errors > 0, "the operations broken by the crash are errors: " + crash.get("counts"));
        long lost = 0;
        for (JsonNode phase : List.of(crash, after)) {
            for (String type : List.of("ReadRecord", "ExtendRecord")) {
                JsonNode t = phase.get("transactions").get(type);
                long typeErrors = t.get("counts").get("error").asLong();
                long typeLost = t.get("errors").path("connection lost").asLong(0);
                assertEquals(
                        typeErrors,
                        typeLost,
                        phase.get("name").asText() + " " + type + ": every error is 'connection lost': "
                                + t.get("errors") + "; stderr: " + stderr);
                lost += typeLost;
            }
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
        if (reconnect) {
            if (fewWithReconnect) {
                assertTrue(
                        errors <= 2L * terminals,
                        "with reconnect only operations in flight at the crash fail"
                                + " (terminals wait for the server with backoff): " + errors);
            }
            // Recorded when they happened (at the crash), not when the terminal got its connection back.
            List<Results.Row> errorRows =
                    results.allRows().stream().filter(r -> r.error() > 0).toList();
            assertTrue(
                    errorRows.stream()
                            .allMatch(r -> r.timeMs() + r.windowMs() > killedMs && r.timeMs() < restartedMs + graceMs),
                    "errors in the windows of the outage (killed " + killedMs + ", restarted " + restartedMs + "): "
                            + errorRows);
        } else {
            long crashErrors = crash.get("counts").get("error").asLong();
            assertTrue(
                    crashErrors > 10L * terminals,
                    "without reconnect the terminals fail fast while the server is away: " + crashErrors);
        }
        return this;
    }

    /**
     * Successes before the crash; the crash phase ended on time (the crash did not stretch it); the count phase after
     * it did its operations, with successes after the restart and (when {@code noErrorsAfter}) no error in a window
     * that begins {@code graceMs} or more after the restart. Without reconnect the premise comes first: the server was
     * back {@code graceMs} before the crash phase ended.
     */
    CrashScenario assertBackToWorkAndOnTime(long graceMs, boolean reconnect, boolean noErrorsAfter, double crashSeconds)
            throws Exception {
        List<Results.Row> all = results.allRows();
        assertTrue(
                all.stream().anyMatch(r -> r.phase() == CRASH && r.timeMs() + r.windowMs() <= killedMs && r.ok() > 0),
                "successes before the crash: " + all);
        long crashEndMs = crash.get("endMs").asLong();
        assertTrue(
                killedMs < crashEndMs,
                "premise unmet: the kill (at " + killedMs + ") came after the crash phase ended (at " + crashEndMs
                        + ")");
        double seconds = crash.get("measuredSeconds").asDouble();
        assertTrue(Math.abs(seconds - crashSeconds) < 0.5, "the crash phase's measuredSeconds " + seconds);
        if (!reconnect) {
            assertTrue(
                    restartedMs + graceMs <= crashEndMs,
                    "premise unmet: without reconnect the restart must be over " + graceMs + " ms before the crash"
                            + " phase ends (at " + crashEndMs + "); killed at " + killedMs + ", restarted at "
                            + restartedMs
                            + " (" + (restartedMs - killedMs) + " ms): a box far slower than a " + crashSeconds
                            + "-s phase allows for");
        }
        assertEquals(AFTER_COUNT, after.get("operations").asLong(), "the count phase's operations: " + after);
        List<Results.Row> afterRows =
                all.stream().filter(r -> r.phase() == AFTER).toList();
        // The server may answer before its start script returns (PostgreSQL's runs its grants after that), so the
        // successes are placed after the kill, which the count phase follows, not after the script's return.
        assertTrue(
                afterRows.stream().anyMatch(r -> r.timeMs() + r.windowMs() > killedMs && r.ok() > 0),
                "successes after the kill (at " + killedMs + "), in the count phase: " + afterRows);
        assertTrue(
                after.get("counts").get("ok").asLong()
                        > after.get("counts").get("error").asLong(),
                "the phase after the crash is mostly successes: " + after.get("counts"));
        if (noErrorsAfter) {
            List<Results.Row> late = all.stream()
                    .filter(r -> r.timeMs() >= restartedMs + graceMs && r.error() > 0)
                    .toList();
            assertTrue(late.isEmpty(), "no errors " + graceMs + " ms or more after the restart: " + late);
        }
        return this;
    }
}
