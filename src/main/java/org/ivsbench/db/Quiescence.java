package org.ivsbench.db;

import java.util.List;
import java.util.Map;

/**
 * A target's capability: what "quiet" means for its server. Before a measured run phase an experiment lets the
 * server digest what a load, restore or extend phase left behind (dirty pages, purge, flushes, compactions),
 * so every mode is measured from the same kind of server state. {@link #settle} starts that (the one-time
 * actions the kind has, such as a checkpoint) and hands back a {@link Probe} whose readings {@link QuietRule}
 * judges. A kind without background work to wait for does not offer the capability.
 */
public interface Quiescence {

    /**
     * Starts settling the server before a run phase on {@code table}; returns the probe to read until the
     * server is quiet. The probe may hold a connection: close it.
     */
    Probe settle(String table) throws TargetException;

    /** Reads the server's background-work gauges; one reading per call. */
    interface Probe extends AutoCloseable {
        /** One reading: every gauge the kind watches, each with its quiet limit. */
        List<QuietGauge> read() throws TargetException;

        /**
         * The physical state the run phase starts from, read once when the wait ends: names and values the kind
         * chooses (MyRocks: memtable size and entries, SST files and bytes per level, the table's entries on
         * disk), written to engine_state.csv. Empty by default.
         */
        default Map<String, Double> state() throws TargetException {
            return Map.of();
        }

        /** Ends the probe: undoes what settling changed on the server (a setting it lowered), frees its connection. */
        @Override
        void close() throws TargetException;
    }
}
