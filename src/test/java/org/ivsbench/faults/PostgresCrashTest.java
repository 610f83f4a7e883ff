package org.ivsbench.faults;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link ServerCrashTest} on PostgreSQL: the postmaster and its backends die (kill -9) in the middle of a time
 * phase and the server comes back a second later, through its crash recovery. The operations that failed are
 * errors "connection lost" under their own transaction type (pgjdbc reports an I/O failure, SQLState 08006, or
 * the server's 57P03 while it is still recovering), the run gets its sessions back, measures successes again
 * after the restart, ends the phase on time and leaves a complete results folder with exit code 0. The server is
 * a PostgreSQL of this class's own (scripts/postgres.sh in a state folder of its own).
 */
// Longer than the suite's 5-minute default (docs/trust.md, "Time limits"): a kill -9 and restart of PostgreSQL
// (start bounded at 90 s) beside the CLI's run.
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class PostgresCrashTest {
    private static final int TERMINALS = 2;
    /**
     * The crash phase, as {@link ServerCrashTest#crashSeconds}; without reconnect longer than MariaDB's: it holds
     * PostgreSQL's crash recovery too (11 s seen on a box with a load average of 25).
     */
    private static int crashSeconds(boolean reconnect) {
        return reconnect ? 6 : 25;
    }

    private static PostgresServer server;

    @TempDir
    Path tmp;

    @BeforeAll
    static void ownServer() throws Exception {
        server = PostgresServer.ownInstance("crash-postgres");
    }

    @AfterAll
    static void removeServer() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @AfterEach
    void serverIsRunningForTheNextTest() throws Exception {
        server.start(); // idempotent; a failed assertion must not leave the server down for the next case
    }

    @ParameterizedTest(name = "reconnectOnConnectionFailure={0}")
    @ValueSource(booleans = {true, false})
    void serverKilledMidPhaseIsMeasuredAndSurvived(boolean reconnect) throws Exception {
        String xml = "<parameters>" + server.connectionXml()
                + CrashScenario.phaseXml(
                        TERMINALS, "faults_crash_pg", crashSeconds(reconnect), reconnect, "<enabled>false</enabled>")
                + "</parameters>";
        CrashScenario.run(tmp, xml, server::kill9, server::start, 1000, 60, 120)
                .assertCompleteWithEveryErrorConnectionLost()
                .assertErrorsFitTheReconnectSetting(reconnect, TERMINALS, true, 0)
                .assertBackToWorkAndOnTime(0, reconnect, reconnect, crashSeconds(reconnect));
    }
}
