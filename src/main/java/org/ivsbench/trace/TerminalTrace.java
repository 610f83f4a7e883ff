package org.ivsbench.trace;

import com.fasterxml.jackson.databind.node.ObjectNode;

import org.ivsbench.op.OpResult;

/**
 * One terminal's place in the trace: the phase it is in, the start offset of its current benchmark operation and
 * the sequence number of its next record operation. Used by that terminal's thread only (its sessions, including
 * ones reopened after a lost connection, share it).
 */
final class TerminalTrace {
    private final TraceWriter writer;
    private final int terminal;
    private final ResultDigest digest;
    private int phase;
    private long offsetNanos;
    private long seq;

    TerminalTrace(TraceWriter writer, int terminal) {
        this.writer = writer;
        this.terminal = terminal;
        this.digest = writer.digest(terminal);
    }

    void phase(int index) {
        phase = index;
    }

    /** A benchmark operation starts now: its record operations carry this offset. */
    void operationStarts() {
        offsetNanos = writer.offsetNanos();
    }

    ObjectNode record(TraceOp op, String table, String key) {
        ObjectNode r = TraceWriter.JSON.createObjectNode();
        r.put("t", terminal);
        r.put("s", seq++);
        r.put("p", phase);
        r.put("o", offsetNanos);
        r.put("op", op.code());
        r.put("table", table);
        r.put("key", key);
        return r;
    }

    /** A generated record: no outcome and no result hash (nothing ran). */
    void emit(ObjectNode r) {
        writer.write(r);
    }

    void finish(ObjectNode r, OpResult result) {
        r.put("outcome", result == null ? "ERROR" : result.outcome().name());
        writer.write(r);
    }

    /** A read or scan that threw has no result hash; it still takes part in the digest, as "error". */
    void finishRead(ObjectNode r, OpResult result, String hash) {
        String h = hash == null ? "error" : hash;
        r.put("hash", h);
        digest.add(r.get("s").asLong(), h);
        finish(r, result);
    }
}
