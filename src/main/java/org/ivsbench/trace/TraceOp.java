package org.ivsbench.trace;

import java.util.Locale;

/** The record operations a trace holds; their lower-case names are the records' {@code op} values. */
enum TraceOp {
    READ,
    SCAN,
    UPDATE,
    INSERT,
    DELETE,
    DELETE_RANGE,
    EXTEND;

    String code() {
        return name().toLowerCase(Locale.ROOT);
    }

    boolean isRead() {
        return this == READ || this == SCAN;
    }
}
