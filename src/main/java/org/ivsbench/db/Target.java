package org.ivsbench.db;

import java.util.Map;
import java.util.function.Consumer;

import org.ivsbench.config.DatabaseType;

/**
 * One database to benchmark. Knows nothing of benchmarks: it creates key/value tables, opens sessions, and
 * reports what the server says about itself. Thread-safe.
 */
public interface Target extends AutoCloseable {

    DatabaseType type();

    /** Opens a new session (one connection). */
    Session openSession() throws TargetException;

    /** Drops the table if it exists and creates it empty. */
    void createTable(TableSpec table) throws TargetException;

    /** Drops the table if it exists. */
    void dropTable(String table) throws TargetException;

    /** Number of records in the table. */
    long countRecords(String table) throws TargetException;

    /**
     * Streams every record of the table in key order (for snapshots, checksums and value-size statistics);
     * constant memory.
     */
    void forEachRecord(String table, Consumer<Record> consumer) throws TargetException;

    /**
     * Server facts for environment.json: product, version, storage engine, buffer pool / cache size,
     * max_allowed_packet / document size limit, ...
     */
    Map<String, Object> environment() throws TargetException;

    /**
     * The storage engine the server reports for {@code table} (MariaDB/MySQL: information_schema), or empty
     * where the backend has no such choice or the table does not exist.
     */
    default java.util.Optional<String> tableEngine(String table) throws TargetException {
        return java.util.Optional.empty();
    }

    /** {@link #environment()}, or the error in its place: a results folder records what it could learn. */
    default Map<String, Object> environmentOrError() {
        try {
            return environment();
        } catch (TargetException e) {
            return Map.of("error", String.valueOf(e.getMessage()));
        }
    }

    /**
     * A snapshot of the server's own counters (SHOW GLOBAL STATUS, serverStatus ...) by name; empty when
     * the server exposes none. Callers take deltas of counters; {@link #isGauge(String)} says which names
     * are values to report as they are.
     */
    Map<String, Double> serverCounters() throws TargetException;

    boolean isGauge(String counterName);

    /** A target with the same settings pointing at another database/schema name (for fresh databases). */
    Target withDatabase(String databaseName) throws TargetException;

    /** Creates the database/schema if the server has that notion; drops it first when {@code dropFirst}. */
    void createDatabase(String databaseName, boolean dropFirst) throws TargetException;

    /** Drops a database/schema made with {@link #createDatabase} (nothing happens if it does not exist). */
    void dropDatabase(String databaseName) throws TargetException;

    @Override
    void close();
}
