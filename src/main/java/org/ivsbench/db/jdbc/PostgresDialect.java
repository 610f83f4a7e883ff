package org.ivsbench.db.jdbc;

import java.io.IOException;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

import org.ivsbench.config.TargetConfig;
import org.ivsbench.db.NativeSnapshot;
import org.ivsbench.db.ServerActivity;
import org.ivsbench.db.TableSpec;
import org.ivsbench.db.TargetException;

/**
 * PostgreSQL through pgjdbc.
 *
 * <p>Table: the key is VARCHAR(255) with the "C" collation, so keys order bytewise and scans return the same
 * records as on the other targets whatever the database's locale; fields are TEXT (no length limit below 1 GB).
 * TEXT keeps PostgreSQL's default storage (values past ~2 KB are compressed and moved out of line into TOAST):
 * the product as shipped, as the MariaDB binding keeps InnoDB's row format.
 *
 * <p>The extend guard counts OCTET_LENGTH, bytes as MariaDB's LENGTH does; values are ASCII, so bytes equal
 * characters and the cap means the same on every target.
 *
 * <p>Transactions: the client extend's BEGIN + SELECT ... FOR UPDATE locks the row as on MariaDB. At READ
 * COMMITTED (the default the kind declares) a terminal waiting for that lock then reads the committed, newer
 * value, so no append is lost; at REPEATABLE READ or SERIALIZABLE PostgreSQL refuses instead (serialization
 * failure, counted as aborted). The server extend's single UPDATE re-checks its guard on the newest row version
 * at READ COMMITTED.
 *
 * <p>A {@link TableSpec.KeyType#INTEGER} key becomes INTEGER and bounded fields VARCHAR(n), as another tool's DDL
 * has them; keys are still bound as strings, untyped (stringtype=unspecified), and the server converts them.
 *
 * <p>Batch loading: reWriteBatchedInserts turns a JDBC batch into multi-row INSERTs. Streaming a table needs a
 * transaction: pgjdbc honours the fetch size only with autocommit off.
 *
 * <p>Creating or dropping a database cannot be done from inside it, so it is done over a connection to the
 * server's maintenance database "postgres".
 */
final class PostgresDialect implements Dialect {
    /** Settings recorded in environment.json: caches, durability, isolation, what the counters depend on. */
    private static final List<String> ENVIRONMENT_SETTINGS = List.of(
            "server_version",
            "shared_buffers",
            "effective_cache_size",
            "work_mem",
            "maintenance_work_mem",
            "wal_buffers",
            "max_wal_size",
            "checkpoint_timeout",
            "synchronous_commit",
            "fsync",
            "full_page_writes",
            "wal_level",
            "wal_compression",
            "default_toast_compression",
            "default_transaction_isolation",
            "max_connections",
            "superuser_reserved_connections",
            "server_encoding",
            "lc_collate",
            "block_size",
            "shared_preload_libraries",
            "track_io_timing",
            "autovacuum",
            "huge_pages");

    /** Settings compared between the primary's server and a fresh instance ({@link #settings}). */
    static final List<String> SETTINGS = List.of(
            "shared_buffers",
            "effective_cache_size",
            "work_mem",
            "maintenance_work_mem",
            "wal_buffers",
            "max_wal_size",
            "min_wal_size",
            "checkpoint_timeout",
            "checkpoint_completion_target",
            "synchronous_commit",
            "fsync",
            "full_page_writes",
            "wal_level",
            "wal_compression",
            "bgwriter_delay",
            "bgwriter_lru_maxpages",
            "autovacuum",
            "autovacuum_naptime",
            "jit",
            "huge_pages",
            "random_page_cost");

    static final String MAINTENANCE_DATABASE = "postgres";

    @Override
    public Properties connectionProperties(TargetConfig config) {
        Properties props = new Properties();
        props.setProperty("ApplicationName", "ivsbench");
        props.setProperty("reWriteBatchedInserts", "true");
        // Strings are bound untyped, so the server gives them the column's type: keys are bound as strings, and
        // a table with an integer key (BenchBase's YCSB DDL) would otherwise refuse "integer = varchar".
        props.setProperty("stringtype", "unspecified");
        return props;
    }

    @Override
    public Map<String, String> learnFromServer(Connection connection) {
        return Map.of();
    }

    @Override
    public void initConnection(Connection connection) {}

    @Override
    public void checkEngine(Connection connection, TableSpec table) throws TargetException {
        if (table.engine() != null && !table.engine().isBlank()) {
            throw new TargetException("storage engine '" + table.engine() + "': PostgreSQL has one table storage;"
                    + " leave the engine out");
        }
    }

    @Override
    public String keyColumnType(TableSpec.KeyType keyType) {
        return keyType == TableSpec.KeyType.INTEGER ? "INTEGER" : "VARCHAR(255) COLLATE \"C\"";
    }

    @Override
    public String lengthFunction() {
        return "OCTET_LENGTH";
    }

    @Override
    public String beginWriteSql() {
        return "BEGIN";
    }

    @Override
    public int streamingFetchSize() {
        return 64;
    }

    @Override
    public void beforeStreaming(Connection connection) throws SQLException {
        connection.setAutoCommit(false);
    }

    @Override
    public SqlFailure classify(SQLException e) {
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        // 08: connection exceptions; 57P01-57P03: the server is shutting down, crashed or still starting.
        if (state.startsWith("08")
                || state.equals("57P01")
                || state.equals("57P02")
                || state.equals("57P03")
                || e instanceof SQLNonTransientConnectionException
                || e instanceof SQLTransientConnectionException
                || hasCause(e, IOException.class)) {
            return SqlFailure.CONNECTION_LOST;
        }
        return switch (state) {
            case "40P01" -> SqlFailure.DEADLOCK;
            case "40001" -> SqlFailure.SERIALIZATION;
            case "55P03" -> SqlFailure.LOCK_TIMEOUT;
            case "23505" -> SqlFailure.DUPLICATE_KEY;
            default -> SqlFailure.OTHER;
        };
    }

    private static boolean hasCause(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e.getCause(); t != null && t != t.getCause(); t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }

    /** jdbc:postgresql://host:port/db?options with the database replaced; the options are kept. */
    @Override
    public String urlForDatabase(String url, String databaseName) throws TargetException {
        if (!databaseName.equals(MAINTENANCE_DATABASE)) {
            Identifiers.require("database", databaseName);
        }
        return ServerUrl.parse(url)
                .filter(parts -> url.startsWith("jdbc:postgresql:"))
                .orElseThrow(() -> new TargetException("cannot derive another database from URL '"
                        + ServerUrl.withoutOptions(url) + "': expected jdbc:postgresql://host:port/database"))
                .withDatabase(databaseName);
    }

    @Override
    public void createDatabase(TargetConfig config, String databaseName, boolean dropFirst) throws TargetException {
        Identifiers.require("database", databaseName);
        try (Connection c = maintenance(config)) {
            if (dropFirst) {
                dropDatabase(c, databaseName);
            }
            boolean exists;
            try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM pg_database WHERE datname = ?")) {
                ps.setString(1, databaseName);
                try (ResultSet rs = ps.executeQuery()) {
                    exists = rs.next();
                }
            }
            if (!exists) {
                try (Statement st = c.createStatement()) {
                    st.execute("CREATE DATABASE " + quote(databaseName));
                }
            }
        } catch (SQLException e) {
            throw new TargetException(
                    "cannot create database " + databaseName + ": " + e.getMessage(),
                    e,
                    classify(e) == SqlFailure.CONNECTION_LOST);
        }
    }

    @Override
    public void dropDatabase(TargetConfig config, String databaseName) throws TargetException {
        Identifiers.require("database", databaseName);
        try (Connection c = maintenance(config)) {
            dropDatabase(c, databaseName);
        } catch (SQLException e) {
            throw new TargetException(
                    "cannot drop database " + databaseName + ": " + e.getMessage(),
                    e,
                    classify(e) == SqlFailure.CONNECTION_LOST);
        }
    }

    private Connection maintenance(TargetConfig config) throws TargetException {
        return Connections.open(this, config, urlForDatabase(config.url(), MAINTENANCE_DATABASE));
    }

    private void dropDatabase(Connection c, String databaseName) throws SQLException {
        try (Statement st = c.createStatement()) {
            // FORCE ends sessions still connected to it (a session left by a failed mode would block the drop).
            st.execute("DROP DATABASE IF EXISTS " + quote(databaseName) + " WITH (FORCE)");
        }
    }

    @Override
    public NativeSnapshot nativeSnapshot(TargetConfig config, JdbcTarget target) {
        return new PostgresNativeSnapshot(config, target);
    }

    @Override
    public ServerActivity activity(JdbcTarget target) {
        return new PostgresActivity(target);
    }

    @Override
    public org.ivsbench.db.Reorganization reorganization(JdbcTarget target) {
        return new PostgresReorganization(target);
    }

    @Override
    public Map<String, Object> environment(Connection connection, TargetConfig config) throws SQLException {
        Map<String, Object> env = new LinkedHashMap<>();
        env.put("product", connection.getMetaData().getDatabaseProductName());
        env.put("driver", Connections.driver(connection));
        Map<String, String> settings = new LinkedHashMap<>();
        try (PreparedStatement ps = connection.prepareStatement(
                "SELECT name, current_setting(name) FROM pg_settings WHERE name = ANY (?)")) {
            Array names = connection.createArrayOf("text", ENVIRONMENT_SETTINGS.toArray());
            ps.setArray(1, names);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    settings.put(rs.getString(1), rs.getString(2));
                }
            }
        }
        for (String name : ENVIRONMENT_SETTINGS) {
            String value = settings.get(name);
            if (value != null) {
                env.put(name.equals("server_version") ? "version" : name, value);
            }
        }
        try (Statement st = connection.createStatement();
                ResultSet rs = st.executeQuery("SELECT pg_size_pretty(pg_database_size(current_database())),"
                        + " EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_stat_statements')")) {
            if (rs.next()) {
                env.put("database_size", rs.getString(1));
                env.put("pg_stat_statements", rs.getBoolean(2));
            }
        }
        env.put("table_storage", "key VARCHAR(255) COLLATE \"C\", fields TEXT (default TOAST storage)");
        return env;
    }

    @Override
    public Map<String, Object> settings(Connection connection) throws SQLException {
        Map<String, Object> settings = new TreeMap<>();
        try (PreparedStatement ps = connection.prepareStatement(
                "SELECT name, current_setting(name) FROM pg_settings WHERE name = ANY (?)")) {
            ps.setArray(1, connection.createArrayOf("text", SETTINGS.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    settings.put(rs.getString(1), rs.getString(2));
                }
            }
        }
        return settings;
    }

    /**
     * Every setting this session can see, in the form SHOW gives it (128MB, on): after ALTER SYSTEM and
     * pg_reload_conf() a session takes the new value before its next statement, so the kept counter connection
     * sees what new sessions get.
     */
    @Override
    public String liveSettingsSql() {
        return "SELECT name, current_setting(name) FROM pg_settings";
    }

    @Override
    public SqlQuiescence.Gauges quietGauges() {
        return new PostgresQuiet(this);
    }

    /** clock_timestamp(): the time when it is evaluated (now() would be the transaction's start). */
    @Override
    public String serverClockSql() {
        return "SELECT CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000000 AS BIGINT)";
    }

    @Override
    public boolean hasServerCounters() {
        return true;
    }

    @Override
    public Map<String, Double> serverCounters(Connection connection) throws SQLException {
        return PostgresCounters.read(connection);
    }

    @Override
    public boolean isGauge(String counterName) {
        return PostgresCounters.isGauge(counterName);
    }
}
