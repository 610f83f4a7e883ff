package org.ivsbench.db.jdbc;

import java.time.Instant;

import org.junit.jupiter.api.Test;

import org.ivsbench.config.TargetConfig;
import org.ivsbench.db.ServerClock;
import org.ivsbench.db.Target;
import org.ivsbench.db.Targets;
import org.ivsbench.testsupport.TestServers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The server clock capability on the private MariaDB and PostgreSQL: both run on this host, so the server's
 * reading lies between the local clock's readings before and after the round trip (to the microsecond).
 */
class ServerClockIntegrationTest {

    private static long localMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1000;
    }

    private static void readsThisHostsClock(TargetConfig config, String function) throws Exception {
        try (Target target = Targets.open(config)) {
            ServerClock clock = target.capability(ServerClock.class).orElseThrow();
            assertTrue(clock.source().contains(function), clock.source());
            assertEquals(1, clock.resolutionMicros());
            try (ServerClock.Reader reader = clock.open()) {
                for (int i = 0; i < 3; i++) {
                    long before = localMicros();
                    long server = reader.nowMicros();
                    long after = localMicros();
                    assertTrue(
                            before <= server + 1 && server <= after + 1,
                            "server " + server + " not within [" + before + ", " + after + "] (microseconds)");
                }
            }
        }
    }

    @Test
    void mariadbReadsItsClockInMicroseconds() throws Exception {
        readsThisHostsClock(TestServers.mariadb(), "UTC_TIMESTAMP(6)");
    }

    @Test
    void postgresReadsItsClockInMicroseconds() throws Exception {
        readsThisHostsClock(TestServers.postgres(), "clock_timestamp()");
    }
}
