package org.ivsbench.op;

import java.util.Locale;

/**
 * How one operation ended. SKIPPED: deliberately did nothing (e.g. an extend past maxfieldlength);
 * ABORTED: the database refused it in a way the workload expects (deadlock, conflict, not found);
 * ERROR: anything else (connection lost, packet too large, ...).
 */
public enum Outcome {
    OK,
    SKIPPED,
    ABORTED,
    ERROR;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
