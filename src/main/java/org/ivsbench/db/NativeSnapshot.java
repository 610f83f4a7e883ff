package org.ivsbench.db;

import java.nio.file.Path;

/** A target's capability: copying a table with the server's own dump and restore tools. */
public interface NativeSnapshot {

    /** Dumps {@code table} of this target's database into {@code file}; returns the milliseconds it took. */
    long dump(String table, Path file) throws TargetException;

    /**
     * Replays a {@link #dump} into the new (dropped first) database {@code databaseName} on this target's
     * server; returns the milliseconds it took.
     */
    long restore(Path file, String databaseName) throws TargetException;
}
