package org.ivsbench.faults;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.ivsbench.testsupport.RunHarness;

/**
 * {@link ServerCrashTest} on PostgreSQL: the postmaster and its backends die (kill -9) in the middle of a time
 * phase and the server comes back a second later, through its crash recovery. The operations that failed are
 * errors "connection lost" under their own transaction type (pgjdbc reports an I/O failure, SQLState 08006, or
 * the server's 57P03 while it is still recovering), the run gets its sessions back, measures successes again
 * after the restart, ends the phase on time and leaves a complete results folder with exit code 0.
 */
// Longer than the suite's 5-minute default (docs/trust.md, "Time limits"): a kill -9 and restart of PostgreSQL
// (start bounded at 90 s) beside the CLI's run.
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class PostgresCrashTest {
    private static final int TERMINALS = 2;
    /** Longer than MariaDB's 8 s: the restart runs PostgreSQL's crash recovery, seconds on a busy machine. */
    private static final int SECONDS = 14;

    @TempDir
    Path tmp;

    private final PostgresServer server = PostgresServer.fromEnvironment();

    @AfterEach
    void serverIsRunningForTheNextTest() throws Exception {
        server.start(); // idempotent; a failed assertion must not leave the server down
    }

    @ParameterizedTest(name = "reconnectOnConnectionFailure={0}")
    @ValueSource(booleans = {true, false})
    void serverKilledMidPhaseIsMeasuredAndSurvived(boolean reconnect) throws Exception {
        String xml = "<parameters>" + RunHarness.postgresConnection()
                + CrashScenario.phaseXml(TERMINALS, "faults_crash_pg", SECONDS, reconnect, "<enabled>false</enabled>")
                + "</parameters>";
        CrashScenario.run(tmp, xml, server::kill9, server::start, 1000, 60, 90)
                .assertCompleteWithEveryErrorConnectionLost()
                .assertErrorsFitTheReconnectSetting(reconnect, TERMINALS, true, 0)
                .assertBackToWorkAndOnTime(0, reconnect, SECONDS);
    }
}
