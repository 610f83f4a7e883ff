package org.ivsbench.db;

import java.util.Map;

/**
 * A target's capability: one snapshot of what the server is doing right now (sessions, their statements and
 * states, who waits for whose lock), to name what blocked the benchmark at a throughput or latency step.
 * Taken rarely (a detected step), so an implementation may open its own connection per call.
 */
public interface ServerActivity {
    /** Longest statement text kept in a snapshot: enough to recognise it, small enough to keep per step. */
    int MAX_QUERY_CHARS = 300;

    /**
     * The snapshot as a JSON-able structure (maps, lists, strings, numbers, booleans). What the server cannot
     * tell is left out with a {@code note} saying why, rather than failing the snapshot.
     */
    Map<String, Object> activity() throws TargetException;

    /** {@code text} cut to {@link #MAX_QUERY_CHARS}; null stays null. */
    static String truncate(String text) {
        if (text == null || text.length() <= MAX_QUERY_CHARS) {
            return text;
        }
        return text.substring(0, MAX_QUERY_CHARS) + "...";
    }
}
