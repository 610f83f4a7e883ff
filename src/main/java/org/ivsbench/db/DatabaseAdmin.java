package org.ivsbench.db;

/** A target's capability: databases (schemas, files) beside the configured one, for fresh databases. */
public interface DatabaseAdmin {

    /** A target with the same settings pointing at another database/schema name. */
    Target withDatabase(String databaseName) throws TargetException;

    /** Creates the database/schema if the server has that notion; drops it first when {@code dropFirst}. */
    void createDatabase(String databaseName, boolean dropFirst) throws TargetException;

    /** Drops a database/schema made with {@link #createDatabase} (nothing happens if it does not exist). */
    void dropDatabase(String databaseName) throws TargetException;
}
