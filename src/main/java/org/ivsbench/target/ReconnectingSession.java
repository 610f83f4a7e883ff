package org.ivsbench.target;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A session that survives a lost connection (server restart, network fault): when an operation fails
 * with {@link TargetException#connectionLost()}, the session is closed and reopened with capped
 * exponential backoff (100 ms doubling to 5 s) until a deadline, and the failed operation is reported as
 * ERROR "connection lost". It is never retried: a silent retry would hide the failure from the results
 * and could apply an append twice. Not thread-safe, like the session it wraps.
 */
public final class ReconnectingSession implements Session {
    public static final String CONNECTION_LOST = "connection lost";
    private static final long FIRST_BACKOFF_MS = 100;
    private static final long MAX_BACKOFF_MS = 5_000;

    private final Target target;
    private final long giveUpAfterMs;
    private Session delegate;

    public ReconnectingSession(Target target, Session delegate, Duration giveUpAfter) {
        this.target = target;
        this.delegate = delegate;
        this.giveUpAfterMs = giveUpAfter.toMillis();
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

    private OpResult guarded(Op op) throws TargetException {
        if (delegate == null) {
            reopen(); // an earlier reopen gave up: try again now rather than fail forever
        }
        try {
            return op.run(delegate);
        } catch (TargetException e) {
            if (!e.connectionLost()) {
                throw e;
            }
            reopen();
            return OpResult.error(CONNECTION_LOST);
        }
    }

    private void reopen() throws TargetException {
        if (delegate != null) {
            delegate.close();
            delegate = null;
        }
        long deadline = System.currentTimeMillis() + giveUpAfterMs;
        long backoff = FIRST_BACKOFF_MS;
        while (true) {
            try {
                delegate = target.openSession();
                return;
            } catch (TargetException e) {
                long now = System.currentTimeMillis();
                if (now >= deadline) {
                    throw new TargetException("could not reconnect within " + giveUpAfterMs + " ms: "
                            + e.getMessage(), e, true);
                }
                try {
                    Thread.sleep(Math.min(backoff, deadline - now));
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
    public OpResult scan(String table, String startKey, int count, List<String> fields,
                         List<Map<String, String>> out) throws TargetException {
        return guarded(s -> s.scan(table, startKey, count, fields, out));
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
    public OpResult extend(String table, String key, String field, String suffix, long maxLength,
                           ExtendMethod method) throws TargetException {
        return guarded(s -> s.extend(table, key, field, suffix, maxLength, method));
    }

    /** The failed batch is rethrown (the loader must know it is missing) after the session is reopened. */
    @Override
    public void insertBatch(String table, List<org.ivsbench.target.Record> records) throws TargetException {
        if (delegate == null) {
            reopen();
        }
        try {
            delegate.insertBatch(table, records);
        } catch (TargetException e) {
            if (e.connectionLost()) {
                reopen();
            }
            throw e;
        }
    }

    @Override
    public void close() {
        if (delegate != null) {
            delegate.close();
            delegate = null;
        }
    }
}
