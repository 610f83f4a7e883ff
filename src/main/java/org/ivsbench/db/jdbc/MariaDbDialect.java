package org.ivsbench.db.jdbc;

import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

import org.ivsbench.config.TargetConfig;
import org.ivsbench.db.NativeSnapshot;
import org.ivsbench.db.ServerActivity;
import org.ivsbench.db.TableSpec;
import org.ivsbench.db.TargetException;

/**
 * MariaDB (and MySQL through the same driver).
 *
 * <p>Character set: fields are utf8mb4 with the binary collation utf8mb4_bin; the key column is
 * ascii_bin (MyRocks refuses a 1020-byte utf8mb4 VARCHAR(255) key; an ASCII key still orders bytewise). Connector/J 3 always talks utf8mb4,
 * so columns in the same character set are stored and returned without conversion (a latin1/ascii column
 * would be converted on every read and write, a per-byte cost that grows with the values this benchmark
 * is about). Values are ASCII, so LENGTH() in bytes equals the character count and the cap means the same
 * on every target. The binary collation orders keys bytewise, as SQLite and Java do, so scans return
 * the same records on every target, and MyRocks accepts it for indexed columns.
 *
 * <p>Prepared statements: server-side (useServerPrepStmts=true; the driver's default is client-side),
 * chosen by measurement (PreparedStatementModesBench in the tests; figures in docs/performance.md): faster for
 * large updates and for point reads of every size. The binary protocol sends a value
 * as it is, where client-side preparation escapes it into SQL text that the server parses again, a cost
 * that grows with exactly the values this benchmark grows. Each session prepares each statement shape
 * once and keeps it. Override with the option useServerPrepStmts=false.
 *
 * <p>Batch loading: Connector/J 3 removed rewriteBatchedStatements; its replacement for inserts,
 * useBulkStmtsForInserts (COM_STMT_BULK_EXECUTE), is on by default and set explicitly here.
 *
 * <p>sql_mode is fixed per session to STRICT_ALL_TABLES,NO_ENGINE_SUBSTITUTION: strict mode turns an
 * over-long CONCAT (which would otherwise store NULL with a warning: silent data loss) into an error, and
 * without NO_ENGINE_SUBSTITUTION a missing RocksDB engine would silently create an InnoDB table.
 */
final class MariaDbDialect implements Dialect {
    private static final List<String> ENVIRONMENT_VARIABLES = List.of(
            "version",
            "version_comment",
            "default_storage_engine",
            "innodb_buffer_pool_size",
            "max_allowed_packet",
            "max_connections",
            "rocksdb_block_cache_size",
            "innodb_flush_log_at_trx_commit",
            "sync_binlog",
            "log_bin",
            "transaction_isolation",
            "tx_isolation",
            "character_set_server",
            "innodb_page_size");

    /** Settings compared between the primary's server and a fresh instance ({@link #settings}). */
    static final List<String> SETTINGS = List.of(
            "innodb_buffer_pool_size",
            "innodb_log_file_size",
            "innodb_log_buffer_size",
            "innodb_flush_log_at_trx_commit",
            "innodb_flush_method",
            "innodb_io_capacity",
            "innodb_io_capacity_max",
            "innodb_max_dirty_pages_pct",
            "innodb_max_dirty_pages_pct_lwm",
            "innodb_adaptive_flushing",
            "innodb_doublewrite",
            "innodb_purge_threads",
            "innodb_page_size",
            "rocksdb_block_cache_size",
            "rocksdb_max_background_jobs",
            "rocksdb_flush_log_at_trx_commit",
            "rocksdb_default_cf_options",
            "sync_binlog",
            "log_bin",
            "query_cache_type",
            "query_cache_size",
            "thread_handling");

    @Override
    public String quote(String identifier) {
        return "`" + identifier + "`";
    }

    @Override
    public Properties connectionProperties(TargetConfig config) {
        Properties props = new Properties();
        props.setProperty("useServerPrepStmts", "true");
        props.setProperty("useBulkStmtsForInserts", "true");
        // Found rows, not changed rows: an UPDATE that matches a row counts it even when the value is equal.
        props.setProperty("useAffectedRows", "false");
        return props;
    }

    @Override
    public String tableEngine(Connection connection, String table) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(
                "SELECT ENGINE FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?")) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    @Override
    public Map<String, String> learnFromServer(Connection connection) throws SQLException {
        try (Statement st = connection.createStatement();
                ResultSet rs = st.executeQuery("SELECT @@GLOBAL.max_allowed_packet")) {
            return rs.next() ? Map.of("maxAllowedPacket", rs.getString(1)) : Map.of();
        }
    }

    @Override
    public void initConnection(Connection connection) throws SQLException {
        try (Statement st = connection.createStatement()) {
            st.execute("SET SESSION sql_mode = 'STRICT_ALL_TABLES,NO_ENGINE_SUBSTITUTION'");
        }
    }

    @Override
    public void checkEngine(Connection connection, TableSpec table) throws SQLException, TargetException {
        if (table.engine() == null || table.engine().isBlank()) {
            return;
        }
        Identifiers.require("engine", table.engine());
        try (PreparedStatement ps = connection.prepareStatement(
                "SELECT SUPPORT FROM information_schema.ENGINES WHERE UPPER(ENGINE) = UPPER(?)")) {
            ps.setString(1, table.engine());
            try (ResultSet rs = ps.executeQuery()) {
                String support = rs.next() ? rs.getString(1) : null;
                if (support == null || !(support.equalsIgnoreCase("YES") || support.equalsIgnoreCase("DEFAULT"))) {
                    throw new TargetException("storage engine '" + table.engine() + "' is not available on this server"
                            + " (information_schema.ENGINES says " + (support == null ? "nothing" : support) + ")"
                            + (table.engine().equalsIgnoreCase("rocksdb")
                                    ? ": start mariadbd with plugin-load-add=ha_rocksdb.so (install mariadb-plugin-rocksdb)"
                                    : ""));
                }
            }
        }
    }

    /**
     * ascii for the key: 255 bytes fit MyRocks' 767-byte key limit (utf8mb4 would need 1020), and keys are "user"
     * + digits anyway.
     */
    @Override
    public String keyColumnType(TableSpec.KeyType keyType) {
        return keyType == TableSpec.KeyType.INTEGER ? "INT" : "VARCHAR(255) CHARACTER SET ascii COLLATE ascii_bin";
    }

    /** LONGTEXT: TEXT stops at 64 KB and MEDIUMTEXT at 16 MB; values grow towards maxfieldlength. */
    @Override
    public String growingTextType() {
        return "LONGTEXT";
    }

    @Override
    public String tableOptions(TableSpec table) {
        String engine = table.engine() != null && !table.engine().isBlank() ? " ENGINE=" + table.engine() : "";
        return engine + " DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin";
    }

    @Override
    public String appendExpression(String quotedColumn) {
        return "CONCAT(COALESCE(" + quotedColumn + ", ''), ?)";
    }

    /** MariaDB refuses LIMIT in an IN subquery, but deletes in index order with ORDER BY ... LIMIT. */
    @Override
    public String deleteRangeSql(String quotedTable, String quotedKey) {
        return "DELETE FROM " + quotedTable + " WHERE " + quotedKey + " >= ? ORDER BY " + quotedKey + " LIMIT ?";
    }

    @Override
    public String beginWriteSql() {
        return "START TRANSACTION";
    }

    @Override
    public int streamingFetchSize() {
        // Connector/J 3 streams whenever a fetch size is set: this many rows per read from the socket.
        return 64;
    }

    @Override
    public SqlFailure classify(SQLException e) {
        int code = e.getErrorCode();
        String message = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
        // Packet checks come first: the server reports 1153 with SQLState 08S01 although only this one
        // statement is at fault, and the driver's own pre-send check says "max_allowed_packet".
        if (code == 1153 || code == 1301 || message.contains("max_allowed_packet")) {
            return SqlFailure.PACKET_TOO_LARGE;
        }
        String state = e.getSQLState();
        if ((state != null && state.startsWith("08"))
                || e instanceof SQLNonTransientConnectionException
                || e instanceof SQLTransientConnectionException
                || code == 2006
                || code == 2013
                || hasCause(e, IOException.class)) {
            return SqlFailure.CONNECTION_LOST;
        }
        return switch (code) {
            case 1213 -> SqlFailure.DEADLOCK;
            case 1205 -> SqlFailure.LOCK_TIMEOUT;
            case 1062 -> SqlFailure.DUPLICATE_KEY;
            default -> "40001".equals(state) ? SqlFailure.DEADLOCK : SqlFailure.OTHER;
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

    @Override
    public String urlForDatabase(String url, String databaseName) throws TargetException {
        if (!databaseName.isEmpty()) {
            Identifiers.require("database", databaseName);
        }
        return ServerUrl.parse(url)
                .filter(parts -> url.startsWith("jdbc:"))
                .orElseThrow(() -> new TargetException("cannot derive another database from URL '"
                        + ServerUrl.withoutOptions(url) + "': expected jdbc:mariadb://host:port/database"))
                .withDatabase(databaseName);
    }

    @Override
    public void dropDatabase(TargetConfig config, String databaseName) throws TargetException {
        Identifiers.require("database", databaseName);
        try (Connection c = Connections.open(this, config, urlForDatabase(config.url(), ""));
                Statement st = c.createStatement()) {
            st.execute("DROP DATABASE IF EXISTS " + quote(databaseName));
        } catch (SQLException e) {
            throw new TargetException(
                    "cannot drop database " + databaseName + ": " + e.getMessage(),
                    e,
                    classify(e) == SqlFailure.CONNECTION_LOST);
        }
    }

    @Override
    public void createDatabase(TargetConfig config, String databaseName, boolean dropFirst) throws TargetException {
        Identifiers.require("database", databaseName);
        try (Connection c = Connections.open(this, config, urlForDatabase(config.url(), ""));
                Statement st = c.createStatement()) {
            if (dropFirst) {
                st.execute("DROP DATABASE IF EXISTS " + quote(databaseName));
            }
            st.execute("CREATE DATABASE IF NOT EXISTS " + quote(databaseName)
                    + " DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin");
        } catch (SQLException e) {
            throw new TargetException(
                    "cannot create database " + databaseName + ": " + e.getMessage(),
                    e,
                    classify(e) == SqlFailure.CONNECTION_LOST);
        }
    }

    @Override
    public NativeSnapshot nativeSnapshot(TargetConfig config, JdbcTarget target) {
        return new MariaDbNativeSnapshot(config, target);
    }

    @Override
    public ServerActivity activity(JdbcTarget target) {
        return new MariaDbActivity(target);
    }

    @Override
    public org.ivsbench.db.Reorganization reorganization(JdbcTarget target) {
        return new MariaDbReorganization(target);
    }

    @Override
    public Map<String, Object> environment(Connection connection, TargetConfig config) throws SQLException {
        Map<String, Object> env = new LinkedHashMap<>();
        env.put("product", connection.getMetaData().getDatabaseProductName());
        env.put("driver", Connections.driver(connection));
        Map<String, String> variables = new TreeMap<>();
        try (Statement st = connection.createStatement();
                ResultSet rs = st.executeQuery("SHOW GLOBAL VARIABLES")) {
            while (rs.next()) {
                variables.put(rs.getString(1).toLowerCase(Locale.ROOT), rs.getString(2));
            }
        }
        for (String name : ENVIRONMENT_VARIABLES) {
            String value = variables.get(name);
            if (value != null) {
                env.put(name, numberOrText(value));
            }
        }
        env.put("table_charset", "utf8mb4 / utf8mb4_bin");
        env.put("session_sql_mode", "STRICT_ALL_TABLES,NO_ENGINE_SUBSTITUTION");
        return env;
    }

    @Override
    public Map<String, Object> settings(Connection connection) throws SQLException {
        Map<String, Object> settings = new TreeMap<>();
        try (Statement st = connection.createStatement();
                ResultSet rs = st.executeQuery(
                        "SHOW GLOBAL VARIABLES WHERE Variable_name IN ('" + String.join("', '", SETTINGS) + "')")) {
            while (rs.next()) {
                settings.put(rs.getString(1).toLowerCase(Locale.ROOT), numberOrText(rs.getString(2)));
            }
        }
        return settings;
    }

    /**
     * Every global variable but the replication positions (gtid_*_pos, gtid_binlog_state), which move with each
     * transaction logged: state, not a setting anyone changed.
     */
    @Override
    public String liveSettingsSql() {
        return "SHOW GLOBAL VARIABLES WHERE Variable_name NOT IN"
                + " ('gtid_binlog_pos', 'gtid_binlog_state', 'gtid_current_pos', 'gtid_slave_pos')";
    }

    @Override
    public SqlQuiescence.Gauges quietGauges() {
        return new MariaDbQuiet();
    }

    private static Object numberOrText(String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            return value;
        }
    }

    @Override
    public Map<String, Double> serverCounters(Connection connection) throws SQLException {
        Map<String, Double> counters = new TreeMap<>();
        try (Statement st = connection.createStatement();
                ResultSet rs = st.executeQuery("SHOW GLOBAL STATUS")) {
            while (rs.next()) {
                String value = rs.getString(2);
                if (value == null || value.isEmpty()) {
                    continue;
                }
                try {
                    counters.put(rs.getString(1), Double.parseDouble(value));
                } catch (NumberFormatException notANumber) {
                    // ON/OFF, version strings, load status text: not counters.
                }
            }
        }
        return counters;
    }

    /** UTC_TIMESTAMP(6): the statement's start on the server, in microseconds, without the session time zone. */
    @Override
    public String serverClockSql() {
        return "SELECT TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', UTC_TIMESTAMP(6))";
    }

    @Override
    public boolean hasServerCounters() {
        return true;
    }

    @Override
    public boolean isGauge(String counterName) {
        return MariaDbCounters.isGauge(counterName);
    }
}
