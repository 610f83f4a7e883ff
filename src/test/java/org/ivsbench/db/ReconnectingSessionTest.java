package org.ivsbench.db;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import org.ivsbench.op.OpResult;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The reconnecting session's own logic on a scripted target (the real server crash is faults.ServerCrashTest):
 * a lost connection is reported at once and not retried, the wait for the server happens only in
 * awaitConnection, with attempts no further apart than the backoff cap, and a give-up is not permanent. The
 * backoff runs on a test clock that moves only when the session sleeps, so every time below is exact.
 */
class ReconnectingSessionTest {

    /** Time that passes only in the session's sleeps. */
    private static final class TestTime implements ReconnectingSession.Waits {
        long now;
        final List<Long> sleeps = new ArrayList<>();

        @Override
        public long nowMs() {
            return now;
        }

        @Override
        public void sleepMs(long ms) {
            sleeps.add(ms);
            now += ms;
        }
    }

    /**
     * A target whose sessions fail with "connection lost" while {@code down} (until {@code upAtMs} on the test
     * clock, if set), and which refuses to open then.
     */
    private static final class ScriptedServer {
        final TestTime time = new TestTime();
        boolean down;
        long upAtMs = Long.MAX_VALUE;
        final List<Long> openAttemptsMs = new ArrayList<>();
        final AtomicInteger reads = new AtomicInteger();

        boolean isDown() {
            return down && time.now < upAtMs;
        }

        Target target() {
            return (Target) Proxy.newProxyInstance(
                    Target.class.getClassLoader(), new Class<?>[] {Target.class}, (proxy, method, args) -> {
                        if (!method.getName().equals("openSession")) {
                            throw new UnsupportedOperationException(method.getName());
                        }
                        openAttemptsMs.add(time.now);
                        if (isDown()) {
                            throw new TargetException("refused", null, true);
                        }
                        return session();
                    });
        }

        private Session session() {
            return (Session) Proxy.newProxyInstance(
                    Session.class.getClassLoader(),
                    new Class<?>[] {Session.class},
                    (proxy, method, args) -> switch (method.getName()) {
                        case "close" -> null;
                        case "read" -> {
                            reads.incrementAndGet();
                            if (isDown()) {
                                throw new TargetException("reset", null, true);
                            }
                            yield OpResult.ok();
                        }
                        default -> throw new UnsupportedOperationException(method.getName());
                    });
        }

        /** Open attempts after the first (the session's original connection), on the test clock. */
        List<Long> reconnectAttemptsMs() {
            return openAttemptsMs.subList(1, openAttemptsMs.size());
        }
    }

    private static OpResult read(Session s) throws TargetException {
        return s.read("t", "k", null, new HashMap<>());
    }

    private static ReconnectingSession session(ScriptedServer server, Duration giveUp) throws Exception {
        Target target = server.target();
        return new ReconnectingSession(target, target.openSession(), giveUp, server.time);
    }

    /** A session whose server went away: its one read failed and the connection is dropped. */
    private static ReconnectingSession lostConnection(ScriptedServer server, Duration giveUp) throws Exception {
        ReconnectingSession session = session(server, giveUp);
        server.down = true;
        read(session);
        return session;
    }

    @Test
    void lostConnectionIsReportedAtOnceAndNotRetried() throws Exception {
        ScriptedServer server = new ScriptedServer();
        ReconnectingSession session = session(server, Duration.ofSeconds(60));
        assertTrue(read(session).isOk());
        server.down = true;
        OpResult failed = read(session);
        assertEquals(ReconnectingSession.CONNECTION_LOST, failed.reason());
        assertFalse(failed.isOk());
        assertEquals(2, server.reads.get(), "the failed read is not retried");
        assertEquals(1, server.openAttemptsMs.size(), "no reconnection inside the failed operation");
        assertEquals(List.of(), server.time.sleeps, "reported without waiting for the server");
        assertTrue(session.disconnected());
    }

    @Test
    void awaitConnectionFindsTheServerWithinTheBackoffCap() throws Exception {
        ScriptedServer server = new ScriptedServer();
        ReconnectingSession session = lostConnection(server, Duration.ofSeconds(60));
        server.upAtMs = 2_000;
        session.awaitConnection();
        assertFalse(session.disconnected());
        assertTrue(read(session).isOk());
        // Backoff 100, 200, 400, then the 500 ms cap: the first attempt at or after 2 s finds the server.
        assertEquals(List.of(0L, 100L, 300L, 700L, 1200L, 1700L, 2200L), server.reconnectAttemptsMs());
        List<Long> attempts = server.reconnectAttemptsMs();
        for (int i = 1; i < attempts.size(); i++) {
            long gap = attempts.get(i) - attempts.get(i - 1);
            assertTrue(gap <= ReconnectingSession.MAX_BACKOFF_MS, "gap " + gap + " ms between attempts");
        }
        for (long slept : server.time.sleeps) {
            assertTrue(slept <= ReconnectingSession.WAIT_SLICE_MS, "one sleep of " + slept + " ms");
        }
    }

    @Test
    void waitingStopsSoonAfterItIsNoLongerWanted() throws Exception {
        ScriptedServer server = new ScriptedServer();
        ReconnectingSession session = lostConnection(server, Duration.ofSeconds(60));
        // Attempts at 0, 100, 300 and 700 ms; the next would be at 1200. Called off at 960 ms: a wait that only
        // looked between attempts would return at 1200; the 50 ms slices from 700 notice it at 1000.
        boolean connected = session.awaitConnection(() -> server.time.now < 960);
        assertFalse(connected);
        assertTrue(session.disconnected());
        assertEquals(List.of(0L, 100L, 300L, 700L), server.reconnectAttemptsMs());
        assertEquals(1000, server.time.now, "returned at the first slice boundary after the wait was called off");
    }

    @Test
    void givingUpIsNotPermanent() throws Exception {
        ScriptedServer server = new ScriptedServer();
        ReconnectingSession session = lostConnection(server, Duration.ofMillis(300));
        TargetException gaveUp = assertThrows(TargetException.class, session::awaitConnection);
        assertTrue(gaveUp.connectionLost());
        assertTrue(gaveUp.getMessage().contains("could not reconnect within 300 ms"), gaveUp.getMessage());
        assertEquals(List.of(0L, 100L, 300L), server.reconnectAttemptsMs(), "the last attempt at the deadline");
        assertThrows(TargetException.class, () -> read(session), "one attempt to connect, which fails");
        server.down = false;
        assertTrue(read(session).isOk(), "the next operation connects again");
    }
}
