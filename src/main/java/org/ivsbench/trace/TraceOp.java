package org.ivsbench.trace;

import java.util.Locale;

/** The record operations a trace holds; their lower-case names are the records' {@code op} values. */
enum TraceOp {
    READ,
    SCAN,
    /** A range read by its start ({@code key}) and end ({@code end}) keys. */
    SCAN_BETWEEN,
    UPDATE,
    INSERT,
    DELETE,
    DELETE_RANGE,
    /** A range delete by its start ({@code key}) and end ({@code end}) keys. */
    DELETE_BETWEEN,
    EXTEND;

    String code() {
        return name().toLowerCase(Locale.ROOT);
    }

    boolean isRead() {
        return this == READ || this == SCAN || this == SCAN_BETWEEN;
    }
}
