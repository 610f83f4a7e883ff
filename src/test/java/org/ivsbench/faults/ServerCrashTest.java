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
 * The database server dies (kill -9) in the middle of a time phase and comes back a second later. The run
 * must count the operations that failed as outcome error "connection lost" under their own transaction
 * type, get its sessions back, measure successes again after the restart, end the phase on time and leave
 * a complete results folder with exit code 0: a measured outage is a result, not a failed run.
 *
 * <p>reconnectOnConnectionFailure=true: a terminal whose connection broke records the failed operation at
 * once and then waits for the server with backoff (100 ms doubling to 500 ms, up to 60 s), so only the
 * operations in flight at the crash fail, in the windows of the outage, and the count phase after the crash
 * phase ends only once the terminals work again.
 * false: the terminal does not wait; every operation tries one fresh connection and fails fast while the
 * server is away (many errors, each counted), and succeeds again as soon as the server is back.
 *
 * <p>The server is a MariaDB of this class's own (scripts/mariadb.sh in a state folder of its own), so a crash or a
 * failed restart touches no other test ({@link CrashScenario}).
 */
// Longer than the suite's 5-minute default (docs/trust.md, "Time limits"): a kill -9 and restart of MariaDB (start
// bounded at 90 s) beside the CLI's run.
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class ServerCrashTest {
    private static final int TERMINALS = 2;
    /**
     * The crash phase. With reconnect the count phase after it waits for the server, so it only has to hold the
     * kill; without reconnect it must hold the kill, a second down and the restart (1-3 s on an idle box, 9 s seen on
     * one with a load average of 25).
     */
    static int crashSeconds(boolean reconnect) {
        return reconnect ? 6 : 20;
    }

    private static MariaDbServer server;

    @TempDir
    Path tmp;

    @BeforeAll
    static void ownServer() throws Exception {
        server = MariaDbServer.ownInstance("crash-mariadb");
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
                        TERMINALS, "faults_crash", crashSeconds(reconnect), reconnect, "<enabled>false</enabled>")
                + "</parameters>";
        CrashScenario.run(tmp, xml, server::kill9, server::start, 1000, 60, 120)
                .assertCompleteWithEveryErrorConnectionLost()
                .assertErrorsFitTheReconnectSetting(reconnect, TERMINALS, true, 0)
                // without reconnect a terminal may still fail once on its stale connection after the restart
                .assertBackToWorkAndOnTime(0, reconnect, reconnect, crashSeconds(reconnect));
    }
}
