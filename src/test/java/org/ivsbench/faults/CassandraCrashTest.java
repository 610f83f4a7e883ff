package org.ivsbench.faults;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.ivsbench.db.cassandra.CassandraFixture;

/**
 * Cassandra is killed (kill -9) in the middle of a time phase and started again (its restart takes seconds: a JVM
 * and a commit log replay). As with MariaDB (ServerCrashTest): the failed operations are ERROR "connection lost"
 * under their own transaction type, the terminals get back to work after the restart, the phase ends on time and
 * the results folder is complete with exit code 0.
 *
 * <p>With reconnectOnConnectionFailure=true a terminal waits while the driver sees no node up, so the errors fall
 * in the windows of the outage; with false every operation fails fast while the node is away.
 */
// Longer than the suite's 5-minute default (docs/trust.md, "Time limits"): a kill -9 and restart of Cassandra (start
// bounded at 150 s) and the CLI's 120 s exit bounds.
@Timeout(value = 15, unit = TimeUnit.MINUTES)
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

    @ParameterizedTest(name = "reconnectOnConnectionFailure={0}")
    @ValueSource(booleans = {true, false})
    void serverKilledMidPhaseIsMeasuredAndSurvived(boolean reconnect) throws Exception {
        String xml = "<parameters>" + CassandraFixture.connection()
                + CrashScenario.phaseXml(
                        TERMINALS,
                        "faults_crash",
                        PHASE_SECONDS,
                        reconnect,
                        "<enabled>true</enabled><interval>1000</interval>")
                + "</parameters>";
        // start() returns when the native port listens again; the driver notices the node within a second of
        // that, so the errors may reach two seconds past the restart, and from then on every window works.
        CrashScenario.run(tmp, xml, server::kill9, server::start, 0, 120, 120)
                .assertCompleteWithEveryErrorConnectionLost()
                .assertErrorsFitTheReconnectSetting(reconnect, TERMINALS, false, 2000)
                .assertBackToWorkAndOnTime(2000, true, PHASE_SECONDS);
    }
}
