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
 * awaitConnection, with attempts no further apart than the backoff cap, and a give-up is not permanent.
 */
class ReconnectingSessionTest {

    /** A target whose sessions fail with "connection lost" while {@code down}, and which refuses to open then. */
    private static final class ScriptedServer {
        volatile boolean down;
        final List<Long> openAttemptsMs = new ArrayList<>();
        final AtomicInteger reads = new AtomicInteger();

        Target target() {
            return (Target) Proxy.newProxyInstance(
                    Target.class.getClassLoader(), new Class<?>[] {Target.class}, (proxy, method, args) -> {
                        if (!method.getName().equals("openSession")) {
                            throw new UnsupportedOperationException(method.getName());
                        }
                        synchronized (openAttemptsMs) {
                            openAttemptsMs.add(System.currentTimeMillis());
                        }
                        if (down) {
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
                            if (down) {
                                throw new TargetException("reset", null, true);
                            }
                            yield OpResult.ok();
                        }
                        default -> throw new UnsupportedOperationException(method.getName());
                    });
        }
    }

    private static OpResult read(Session s) throws TargetException {
        return s.read("t", "k", null, new HashMap<>());
    }

    /** A session whose server went away: its one read failed and the connection is dropped. */
    private static ReconnectingSession lostConnection(ScriptedServer server, Duration giveUp) throws Exception {
        Target target = server.target();
        ReconnectingSession session = new ReconnectingSession(target, target.openSession(), giveUp);
        server.down = true;
        read(session);
        return session;
    }

    @Test
    void lostConnectionIsReportedAtOnceAndNotRetried() throws Exception {
        ScriptedServer server = new ScriptedServer();
        Target target = server.target();
        ReconnectingSession session = new ReconnectingSession(target, target.openSession(), Duration.ofSeconds(60));
        assertTrue(read(session).isOk());
        server.down = true;
        long t0 = System.nanoTime();
        OpResult failed = read(session);
        long tookMs = (System.nanoTime() - t0) / 1_000_000;
        assertEquals(ReconnectingSession.CONNECTION_LOST, failed.reason());
        assertFalse(failed.isOk());
        assertEquals(2, server.reads.get(), "the failed read is not retried");
        assertEquals(1, server.openAttemptsMs.size(), "no reconnection inside the failed operation");
        assertTrue(
                tookMs < 90,
                "reported without waiting for the server (the first backoff is 100 ms): " + tookMs + " ms");
        assertTrue(session.disconnected());
    }

    @Test
    void awaitConnectionFindsTheServerWithinTheBackoffCap() throws Exception {
        ScriptedServer server = new ScriptedServer();
        ReconnectingSession session = lostConnection(server, Duration.ofSeconds(60));
        Thread back = new Thread(() -> {
            try {
                Thread.sleep(2_000);
            } catch (InterruptedException e) {
                return;
            }
            server.down = false;
        });
        back.start();
        session.awaitConnection();
        back.join();
        assertFalse(session.disconnected());
        assertTrue(read(session).isOk());
        List<Long> attempts;
        synchronized (server.openAttemptsMs) {
            attempts = List.copyOf(server.openAttemptsMs.subList(1, server.openAttemptsMs.size()));
        }
        // 100, 200, 400, then 500 ms apart: about 6 attempts in 2 s, never a gap far beyond the cap.
        assertTrue(attempts.size() >= 5, "attempts " + attempts.size());
        for (int i = 1; i < attempts.size(); i++) {
            long gap = attempts.get(i) - attempts.get(i - 1);
            assertTrue(gap < ReconnectingSession.MAX_BACKOFF_MS + 400, "gap " + gap + " ms between attempts");
        }
    }

    @Test
    void waitingStopsSoonAfterItIsNoLongerWanted() throws Exception {
        ScriptedServer server = new ScriptedServer();
        ReconnectingSession session = lostConnection(server, Duration.ofSeconds(60));
        // Attempts at about 0, 0.1, 0.3 and 0.7 s; the next would be at 1.2 s. Called off at 0.95 s, a wait that
        // only looked between attempts would return about 250 ms late; the 50 ms slices return within 50 ms.
        long wantedUntil = System.nanoTime() + 950_000_000L;
        boolean connected = session.awaitConnection(() -> System.nanoTime() < wantedUntil);
        long lateMs = (System.nanoTime() - wantedUntil) / 1_000_000;
        assertFalse(connected);
        assertTrue(session.disconnected());
        assertTrue(lateMs < 150, "returned " + lateMs + " ms after the wait was called off");
    }

    @Test
    void givingUpIsNotPermanent() throws Exception {
        ScriptedServer server = new ScriptedServer();
        ReconnectingSession session = lostConnection(server, Duration.ofMillis(300));
        TargetException gaveUp = assertThrows(TargetException.class, session::awaitConnection);
        assertTrue(gaveUp.connectionLost());
        assertTrue(gaveUp.getMessage().contains("could not reconnect within 300 ms"), gaveUp.getMessage());
        assertThrows(TargetException.class, () -> read(session), "one attempt to connect, which fails");
        server.down = false;
        assertTrue(read(session).isOk(), "the next operation connects again");
    }
}
