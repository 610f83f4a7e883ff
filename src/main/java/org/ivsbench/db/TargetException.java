package org.ivsbench.db;

/**
 * A failure talking to the database. {@code connectionLost} tells the caller the session is unusable and
 * must be reopened (after a server restart, a network fault ...).
 */
public final class TargetException extends Exception {
    private final boolean connectionLost;

    public TargetException(String message, Throwable cause, boolean connectionLost) {
        super(message, cause);
        this.connectionLost = connectionLost;
    }

    public TargetException(String message) {
        this(message, null, false);
    }

    public boolean connectionLost() {
        return connectionLost;
    }
}
