package org.ivsbench.db;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.LongConsumer;

import org.ivsbench.op.OpResult;

/**
 * A session that survives a lost connection (server restart, network fault). When an operation fails
 * with {@link TargetException#connectionLost()}, it is reported at once as ERROR "connection lost" (so it
 * lands in the window and with the latency it really had) and the broken session is closed. It is never
 * retried: a silent retry would hide the failure from the results and could apply an append twice.
 *
 * <p>The caller then waits in {@link #awaitConnection()}, outside any operation's service time, while the
 * session is reopened with capped exponential backoff (100 ms doubling to 500 ms, so a server that is back
 * is found within half a second) until a deadline. An operation called without a connection makes one
 * attempt to open one. Not thread-safe, like the session it wraps.
 */
public final class ReconnectingSession implements Session {
    public static final String CONNECTION_LOST = "connection lost";
    static final long FIRST_BACKOFF_MS = 100;
    static final long MAX_BACKOFF_MS = 500;
    static final long WAIT_SLICE_MS = 50;

    private final Target target;
    private final long giveUpAfterMs;
    private final Waits waits;
    private Session delegate;

    /** The time the backoff reads and sleeps on: the system's, or a test's that moves only when slept on. */
    interface Waits {
        long nowMs();

        void sleepMs(long ms) throws InterruptedException;

        Waits SYSTEM = new Waits() {
            @Override
            public long nowMs() {
                return System.currentTimeMillis();
            }

            @Override
            public void sleepMs(long ms) throws InterruptedException {
                Thread.sleep(ms);
            }
        };
    }

    public ReconnectingSession(Target target, Session delegate, Duration giveUpAfter) {
        this(target, delegate, giveUpAfter, Waits.SYSTEM);
    }

    ReconnectingSession(Target target, Session delegate, Duration giveUpAfter, Waits waits) {
        this.target = target;
        this.delegate = delegate;
        this.giveUpAfterMs = giveUpAfter.toMillis();
        this.waits = waits;
    }

    /** Wraps a new session of the target when the config asks for reconnection, else returns it as is. */
    public static Session open(Target target, boolean reconnect) throws TargetException {
        Session session = target.openSession();
        return reconnect ? new ReconnectingSession(target, session, Duration.ofSeconds(60)) : session;
    }

    @FunctionalInterface
    private interface Op {
        OpResult run(Session s) throws TargetException;
    }

    /** True while the session has no open connection (after a lost one, before it is reopened). */
    public boolean disconnected() {
        return delegate == null;
    }

    private OpResult guarded(Op op) throws TargetException {
        if (delegate == null) {
            delegate = target.openSession(); // one attempt; a failure is this operation's error
        }
        try {
            return op.run(delegate);
        } catch (TargetException e) {
            if (!e.connectionLost()) {
                throw e;
            }
            dropConnection();
            return OpResult.error(CONNECTION_LOST);
        }
    }

    private void dropConnection() {
        if (delegate != null) {
            delegate.close();
            delegate = null;
        }
    }

    /**
     * Returns at once when connected; otherwise reopens the session with backoff and returns when it is
     * open, or throws (connection lost) after the give-up deadline; the next call starts a new wait.
     */
    public void awaitConnection() throws TargetException {
        awaitConnection(() -> true);
    }

    /**
     * As {@link #awaitConnection()}, but stops waiting (returns false, still disconnected) soon after
     * {@code keepWaiting} turns false: the backoff sleeps in slices of at most 50 ms to notice it.
     */
    public boolean awaitConnection(BooleanSupplier keepWaiting) throws TargetException {
        if (delegate != null) {
            return true;
        }
        long deadline = waits.nowMs() + giveUpAfterMs;
        long backoff = FIRST_BACKOFF_MS;
        while (true) {
            if (!keepWaiting.getAsBoolean()) {
                return false;
            }
            try {
                delegate = target.openSession();
                return true;
            } catch (TargetException e) {
                long now = waits.nowMs();
                if (now >= deadline) {
                    throw new TargetException(
                            "could not reconnect within " + giveUpAfterMs + " ms: " + e.getMessage(), e, true);
                }
                long wakeAt = Math.min(now + backoff, deadline);
                try {
                    for (long left = wakeAt - now;
                            left > 0 && keepWaiting.getAsBoolean();
                            left = wakeAt - waits.nowMs()) {
                        waits.sleepMs(Math.min(left, WAIT_SLICE_MS));
                    }
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw new TargetException("interrupted while reconnecting", interrupted, true);
                }
                backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
            }
        }
    }

    @Override
    public OpResult read(String table, String key, List<String> fields, Map<String, String> out)
            throws TargetException {
        return guarded(s -> s.read(table, key, fields, out));
    }

    @Override
    public OpResult scan(String table, String startKey, int count, List<String> fields, List<Map<String, String>> out)
            throws TargetException {
        return guarded(s -> s.scan(table, startKey, count, fields, out));
    }

    @Override
    public OpResult scanBetween(
            String table, String startKey, String endKey, List<String> fields, List<Map<String, String>> out)
            throws TargetException {
        return guarded(s -> s.scanBetween(table, startKey, endKey, fields, out));
    }

    @Override
    public OpResult update(String table, String key, Map<String, String> values) throws TargetException {
        return guarded(s -> s.update(table, key, values));
    }

    @Override
    public OpResult insert(String table, String key, Map<String, String> values) throws TargetException {
        return guarded(s -> s.insert(table, key, values));
    }

    @Override
    public OpResult delete(String table, String key) throws TargetException {
        return guarded(s -> s.delete(table, key));
    }

    @Override
    public OpResult deleteRange(String table, String startKey, int count, LongConsumer deleted) throws TargetException {
        return guarded(s -> s.deleteRange(table, startKey, count, deleted));
    }

    @Override
    public OpResult deleteBetween(String table, String startKey, String endKey, LongConsumer deleted)
            throws TargetException {
        return guarded(s -> s.deleteBetween(table, startKey, endKey, deleted));
    }

    @Override
    public OpResult extend(String table, String key, String field, String suffix, long maxLength, ExtendMethod method)
            throws TargetException {
        return guarded(s -> s.extend(table, key, field, suffix, maxLength, method));
    }

    /**
     * Waits for a connection first; a failed batch is rethrown (the loader must know it is missing) and the
     * next batch waits for the server again.
     */
    @Override
    public void insertBatch(String table, List<Record> records) throws TargetException {
        awaitConnection();
        try {
            delegate.insertBatch(table, records);
        } catch (TargetException e) {
            if (e.connectionLost()) {
                dropConnection();
            }
            throw e;
        }
    }

    @Override
    public void close() {
        dropConnection();
    }
}
