package org.ivsbench.op;

/**
 * What one record operation did: its outcome, a short reason when it did not succeed (kept per reason in
 * the summary, so keep it low-cardinality: no keys or values in it), and the bytes of field values moved.
 */
public record OpResult(Outcome outcome, String reason, long bytesRead, long bytesWritten) {
    private static final OpResult OK_EMPTY = new OpResult(Outcome.OK, null, 0, 0);

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

    public boolean isOk() {
        return outcome == Outcome.OK;
    }
}
