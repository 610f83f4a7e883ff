package org.ivsbench.db;

import java.util.Optional;
import java.util.function.Consumer;

/**
 * One database to benchmark. Knows nothing of benchmarks: it creates key/value tables, opens sessions and
 * streams records. What only some kinds can do (server facts, counters, other databases, native dumps) is
 * asked for with {@link #capability}. Thread-safe.
 */
public interface Target extends AutoCloseable {

    /** The kind of database this target drives. */
    TargetKind kind();

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
     * The capability {@code type} ({@link ServerInfo}, {@link StatusCounters}, {@link DatabaseAdmin},
     * {@link NativeSnapshot} ...), or empty when this target does not offer it. By default a target offers
     * the capability interfaces it implements.
     */
    default <T> Optional<T> capability(Class<T> type) {
        return type.isInstance(this) ? Optional.of(type.cast(this)) : Optional.empty();
    }

    @Override
    void close();
}
