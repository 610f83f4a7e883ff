package org.ivsbench.op;

/**
 * What one record operation did: its outcome, a short reason when it did not succeed (kept per reason in
 * the summary, so keep it low-cardinality: no keys or values in it), the bytes of field values moved, and the
 * size of the value it touched ({@code sizeBytes}, the key of latency by size; {@link #UNKNOWN_SIZE} when not
 * known). Whoever knows the size sets it: a session for an extend (only it sees the value it grew, also across a
 * retry), a benchmark procedure for the rest (e.g. a read's values returned).
 */
public record OpResult(Outcome outcome, String reason, long bytesRead, long bytesWritten, long sizeBytes) {
    /** {@link #sizeBytes()} of an operation whose size is not known (failed, or the database did not say). */
    public static final long UNKNOWN_SIZE = -1;

    private static final OpResult OK_EMPTY = new OpResult(Outcome.OK, null, 0, 0);

    /** An operation whose size is not known. */
    public OpResult(Outcome outcome, String reason, long bytesRead, long bytesWritten) {
        this(outcome, reason, bytesRead, bytesWritten, UNKNOWN_SIZE);
    }

    public static OpResult ok() {
        return OK_EMPTY;
    }

    public static OpResult ok(long bytesRead, long bytesWritten) {
        return new OpResult(Outcome.OK, null, bytesRead, bytesWritten);
    }

    public static OpResult skipped(String reason, long bytesRead) {
        return new OpResult(Outcome.SKIPPED, reason, bytesRead, 0);
    }

    public static OpResult aborted(String reason) {
        return new OpResult(Outcome.ABORTED, reason, 0, 0);
    }

    public static OpResult error(String reason) {
        return new OpResult(Outcome.ERROR, reason, 0, 0);
    }

    /** This result with the size of the value it touched (bytes; {@link #UNKNOWN_SIZE} for none). */
    public OpResult withSize(long bytes) {
        return bytes == sizeBytes ? this : new OpResult(outcome, reason, bytesRead, bytesWritten, bytes);
    }

    public boolean isOk() {
        return outcome == Outcome.OK;
    }
}
