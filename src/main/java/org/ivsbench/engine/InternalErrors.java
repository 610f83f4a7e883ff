package org.ivsbench.engine;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.ivsbench.op.OpResult;

/**
 * Turns an unchecked exception thrown by a terminal's operation (a bug in the benchmark or inside a driver,
 * e.g. an ArrayIndexOutOfBoundsException deep in a JDBC driver) into an error outcome, so the terminal keeps
 * running: otherwise its thread would die, the operation would go unrecorded, the terminal would vanish for
 * the rest of the run and a count phase could wait forever for operations nobody takes.
 *
 * <p>The reason names only the exception class: reasons are aggregated per transaction type, so they must
 * come from a small fixed set (a message may hold a key or grow without bound). The message and stack trace
 * go to the log, for the first few per terminal only, so a bug hit on every operation cannot flood it.
 * One instance per terminal thread.
 */
final class InternalErrors {
    private static final Logger LOG = LoggerFactory.getLogger(InternalErrors.class);
    static final String REASON_PREFIX = "internal error: ";
    static final int LOGGED = 3;

    private final int terminalId;
    private int logged;

    InternalErrors(int terminalId) {
        this.terminalId = terminalId;
    }

    /** The error outcome for {@code e}, logged if this terminal has not logged {@link #LOGGED} yet. */
    OpResult outcome(String typeName, RuntimeException e) {
        if (logged < LOGGED) {
            logged++;
            LOG.warn(
                    "terminal {}: {} threw (recorded as an error, the terminal goes on){}",
                    terminalId,
                    typeName,
                    logged == LOGGED ? "; further internal errors of this terminal are not logged" : "",
                    e);
        }
        return OpResult.error(reason(e));
    }

    /** Logs a terminal thread's death (an Error): the run is stopped by the caller. */
    static void died(int terminalId, Error e) {
        LOG.error("terminal {} died of {}; the run stops and keeps what was measured", terminalId, e.toString(), e);
    }

    static String reason(RuntimeException e) {
        // An anonymous or local class has an empty simple name: fall back to the full name.
        String name = e.getClass().getSimpleName();
        return REASON_PREFIX + (name.isEmpty() ? e.getClass().getName() : name);
    }
}
