package org.ivsbench.db.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.Properties;

import org.ivsbench.config.TargetConfig;
import org.ivsbench.db.NativeSnapshot;
import org.ivsbench.db.ServerActivity;
import org.ivsbench.db.TableSpec;
import org.ivsbench.db.TargetException;

/**
 * What differs between SQL products: DDL, the append expression, transaction statements, connection
 * setup, error classes and what the server reports about itself. Statements common to both products are
 * built by {@link SqlStatements} with the dialect's quoting. Stateless and thread-safe.
 */
interface Dialect {

    /** Quotes an already validated identifier (standard SQL's double quotes by default). */
    default String quote(String identifier) {
        return "\"" + identifier + "\"";
    }

    /** Driver properties for new connections (user options from the config are added on top). */
    Properties connectionProperties(TargetConfig config);

    /**
     * Driver settings that depend on the server, read once on the target's first connection (MariaDB:
     * max_allowed_packet, so the driver refuses an oversized statement before sending it instead of the
     * server closing the connection).
     */
    Map<String, String> learnFromServer(Connection connection) throws SQLException;

    /** Prepares what must exist before the first connection (SQLite: the database file's folder). */
    default void beforeConnect(String url) throws TargetException {}

    /** Per-connection settings run once after connecting (sql_mode, pragmas ...). */
    void initConnection(Connection connection) throws SQLException;

    /** Fails clearly when the table's engine cannot be used on this server. */
    void checkEngine(Connection connection, TableSpec table) throws SQLException, TargetException;

    /** The key column's type (NOT NULL and the primary key are added by {@link SqlStatements#createTable}). */
    String keyColumnType(TableSpec.KeyType keyType);

    /** The type of a field that may grow to the table's maxFieldLength (bounded fields are VARCHAR(n)). */
    default String growingTextType() {
        return "TEXT";
    }

    /** What follows the column list in CREATE TABLE (storage engine, character set), "" for nothing. */
    default String tableOptions(TableSpec table) {
        return "";
    }

    /**
     * {@code column} followed by the bound suffix parameter, as a string expression; NULL counts as empty. By default
     * standard SQL's {@code ||}.
     */
    default String appendExpression(String quotedColumn) {
        return "COALESCE(" + quotedColumn + ", '') || ?";
    }

    /** The SQL function giving a field's length in bytes, for the extend guard. */
    default String lengthFunction() {
        return "LENGTH";
    }

    /**
     * One statement deleting the first {@code ?2} rows with key >= {@code ?1} in key order. By default a
     * subquery picks the keys (SQLite and PostgreSQL have no DELETE ... LIMIT).
     */
    default String deleteRangeSql(String quotedTable, String quotedKey) {
        return "DELETE FROM " + quotedTable + " WHERE " + quotedKey + " IN (SELECT " + quotedKey + " FROM "
                + quotedTable + " WHERE " + quotedKey + " >= ? ORDER BY " + quotedKey + " LIMIT ?)";
    }

    /** Appended to a point SELECT to lock the row for the rest of the transaction ("" when BEGIN locks). */
    default String lockRowSuffix() {
        return " FOR UPDATE";
    }

    /** Starts a transaction that will write: the client extend's row lock and the loader's batches. */
    String beginWriteSql();

    /** Rows to fetch per round trip when streaming a whole table (forward-only, constant memory). */
    int streamingFetchSize();

    /** Prepares a connection of its own for streaming a whole table (pgjdbc streams only inside a transaction). */
    default void beforeStreaming(Connection connection) throws SQLException {}

    /** How the driver reported a failure, for the outcome mapping. */
    SqlFailure classify(SQLException e);

    /** The URL of another database next to the configured one. */
    String urlForDatabase(String url, String databaseName) throws TargetException;

    /** Creates the database the URL would name (dropping it first when asked), where that means anything. */
    void createDatabase(TargetConfig config, String databaseName, boolean dropFirst) throws TargetException;

    void dropDatabase(TargetConfig config, String databaseName) throws TargetException;

    Map<String, Object> environment(Connection connection, TargetConfig config) throws SQLException;

    /** The storage engine of {@code table} in the connection's database, or null (no such choice, no table). */
    default String tableEngine(Connection connection, String table) throws SQLException {
        return null;
    }

    /**
     * A query of one row and one column, the server's current time in epoch microseconds (UTC), read while the
     * statement runs on the server; null for an embedded database (its clock is this host's).
     */
    default String serverClockSql() {
        return null;
    }

    /**
     * What quiet means for this product before a measured run phase ({@link org.ivsbench.db.Quiescence}): a new
     * instance per wait (it may remember what it learnt), or null when there is nothing to wait for.
     */
    default SqlQuiescence.Gauges quietGauges() {
        return null;
    }

    /** The copy with the product's own dump tools ({@link NativeSnapshot}), or null where it has none. */
    default NativeSnapshot nativeSnapshot(TargetConfig config, JdbcTarget target) {
        return null;
    }

    /** The product's own reorganization of a table ({@link org.ivsbench.db.Reorganization}), or null. */
    default org.ivsbench.db.Reorganization reorganization(JdbcTarget target) {
        return null;
    }

    /** What the server is doing right now ({@link ServerActivity}), or null where it cannot tell. */
    default ServerActivity activity(JdbcTarget target) {
        return null;
    }

    /**
     * The server settings that decide how fast it runs (caches, log sizes, flushing), to compare the primary's
     * server with a fresh instance; empty where there is no server to compare.
     */
    default Map<String, Object> settings(Connection connection) throws SQLException {
        return Map.of();
    }

    /**
     * A query of every setting of the running server, two columns (name, value as text), for the monitor's record
     * of settings changed while a run goes on ({@link org.ivsbench.db.ServerSettings}); null where there is none.
     */
    default String liveSettingsSql() {
        return null;
    }

    /** Whether the database has counters to read (an embedded one has none, so no connection is kept for them). */
    boolean hasServerCounters();

    Map<String, Double> serverCounters(Connection connection) throws SQLException;

    boolean isGauge(String counterName);
}
