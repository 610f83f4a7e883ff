package org.ivsbench.trace;

/** A trace file that cannot be used: its message is one line saying why. */
public final class TraceException extends Exception {
    public TraceException(String message) {
        super(message);
    }
}
