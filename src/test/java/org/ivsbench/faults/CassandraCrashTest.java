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
 * Cassandra is killed (kill -9) in the middle of a time phase and started again (its restart takes seconds: a JVM
 * and a commit log replay). As with MariaDB (ServerCrashTest): the failed operations are ERROR "connection lost"
 * under their own transaction type, the terminals get back to work after the restart, the phase ends on time and
 * the results folder is complete with exit code 0.
 *
 * <p>With reconnectOnConnectionFailure=true a terminal waits while the driver sees no node up, so the errors fall
 * in the windows of the outage, and the count phase after the crash phase waits for the node however long its
 * restart takes; with false every operation fails fast while the node is away, so the crash phase must hold the
 * whole restart (about 20 s; the phase is 60 s, the bound).
 *
 * <p>The node is one of this class's own (scripts/cassandra.sh in a state folder of its own, the shared node's jars),
 * started once for both cases: a failed restart must not take the suite's node down with it (docs/trust.md).
 */
// Longer than the suite's 5-minute default (docs/trust.md, "Time limits"): a kill -9 and restart of Cassandra (start
// bounded at 150 s) and the CLI's 120 s exit bounds.
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class CassandraCrashTest {
    private static final int TERMINALS = 2;

    private static CassandraServer server;

    @TempDir
    Path tmp;

    @BeforeAll
    static void ownServer() throws Exception {
        server = CassandraServer.ownInstance("crash-cassandra");
    }

    @AfterAll
    static void removeServer() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @AfterEach
    void serverIsRunningForTheNextTest() throws Exception {
        server.start(); // idempotent; a failed assertion must not leave the node down for the next case
    }

    @ParameterizedTest(name = "reconnectOnConnectionFailure={0}")
    @ValueSource(booleans = {true, false})
    void serverKilledMidPhaseIsMeasuredAndSurvived(boolean reconnect) throws Exception {
        int seconds = reconnect ? 8 : 60;
        String xml = "<parameters>" + server.connectionXml()
                + CrashScenario.phaseXml(
                        TERMINALS,
                        "faults_crash",
                        seconds,
                        reconnect,
                        "<enabled>true</enabled><interval>1000</interval>")
                + "</parameters>";
        // start() returns when the native port listens again; the driver notices the node within a second of
        // that, so the errors may reach two seconds past the restart, and from then on every window works.
        CrashScenario.run(tmp, xml, server::kill9, server::start, 0, 120, 180)
                .assertCompleteWithEveryErrorConnectionLost()
                .assertErrorsFitTheReconnectSetting(reconnect, TERMINALS, false, 2000)
                .assertBackToWorkAndOnTime(2000, reconnect, true, seconds);
    }
}
