package org.ivsbench.db.jdbc;

/**
 * The classes of SQL failure the session treats differently. Reasons are fixed strings so that the
 * per-reason counts in a summary stay few (never a key, a value or a driver message).
 */
enum SqlFailure {
    /** The session is unusable: reopen it. */
    CONNECTION_LOST("connection lost"),
    /** One value or statement exceeded the server's packet limit: this operation failed, the run goes on. */
    PACKET_TOO_LARGE("value exceeds max_allowed_packet"),
    DEADLOCK("deadlock"),
    /** PostgreSQL: a concurrent update made this transaction's snapshot unusable (REPEATABLE READ and above). */
    SERIALIZATION("serialization failure"),
    LOCK_TIMEOUT("lock wait timeout"),
    /** SQLite: another connection held the write lock past busy_timeout. */
    BUSY("database busy"),
    DUPLICATE_KEY("duplicate key"),
    OTHER("sql error");

    private final String reason;

    SqlFailure(String reason) {
        this.reason = reason;
    }

    String reason() {
        return reason;
    }

    /** Expected under concurrency and retried by nobody: counted as ABORTED rather than ERROR. */
    boolean isAbort() {
        return this == DEADLOCK
                || this == SERIALIZATION
                || this == LOCK_TIMEOUT
                || this == BUSY
                || this == DUPLICATE_KEY;
    }
}
