package org.ivsbench.db.jdbc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.ivsbench.config.TargetConfig;
import org.ivsbench.db.QuietGauge;
import org.ivsbench.db.TableSpec;
import org.ivsbench.db.TargetException;

/**
 * SQLite through xerial's driver, one file per database.
 *
 * <p>Connection settings (per connection, as SQLite keeps them per connection):
 * journal_mode=WAL so readers never block the writer and several terminals can share one file;
 * busy_timeout=30000 ms so a terminal waiting for the single write lock waits instead of failing at
 * once (a wait past it is ABORTED "database busy"); synchronous=NORMAL, which in WAL mode syncs at
 * checkpoints rather than every commit: durable against application crashes, not power loss, which is
 * the usual setting for WAL and keeps fsync latency from dominating an embedded-demo benchmark.
 * Write transactions use BEGIN IMMEDIATE: taking the write lock up front means a read-then-write (the
 * client extend) can never deadlock on lock upgrade.
 */
final class SqliteDialect implements Dialect {
    static final int BUSY_TIMEOUT_MS = 30_000;
    private static final String PREFIX = "jdbc:sqlite:";

    @Override
    public Properties connectionProperties(TargetConfig config) {
        Properties props = new Properties();
        // Known to xerial's SQLiteConfig; applied while opening, before any statement.
        props.setProperty("journal_mode", "WAL");
        props.setProperty("synchronous", "NORMAL");
        props.setProperty("busy_timeout", Integer.toString(BUSY_TIMEOUT_MS));
        return props;
    }

    @Override
    public Map<String, String> learnFromServer(Connection connection) {
        return Map.of();
    }

    @Override
    public void initConnection(Connection connection) throws SQLException {
        try (Statement st = connection.createStatement()) {
            // Repeated as pragmas so the settings hold whatever the driver does with unknown properties.
            st.execute("PRAGMA busy_timeout = " + BUSY_TIMEOUT_MS);
            st.execute("PRAGMA journal_mode = WAL");
            st.execute("PRAGMA synchronous = NORMAL");
        }
    }

    @Override
    public void checkEngine(Connection connection, TableSpec table) throws TargetException {
        if (table.engine() != null && !table.engine().isBlank()) {
            throw new TargetException(
                    "SQLite has no storage engines: engine '" + table.engine() + "' applies to MariaDB only");
        }
    }

    /** SQLite does not enforce a VARCHAR length: for bounded fields the declared type only documents the shape. */
    @Override
    public String keyColumnType(TableSpec.KeyType keyType) {
        return keyType == TableSpec.KeyType.INTEGER ? "INT" : "TEXT";
    }

    @Override
    public String lockRowSuffix() {
        return "";
    }

    @Override
    public String beginWriteSql() {
        return "BEGIN IMMEDIATE";
    }

    @Override
    public int streamingFetchSize() {
        return 64;
    }

    @Override
    public SqlFailure classify(SQLException e) {
        int code = e.getErrorCode() & 0xff; // primary result code; extended codes carry details above it
        String message = String.valueOf(e.getMessage());
        if (code == 5 || code == 6 || message.contains("SQLITE_BUSY") || message.contains("SQLITE_LOCKED")) {
            return SqlFailure.BUSY;
        }
        if (code == 19 && (message.contains("UNIQUE") || message.contains("PRIMARYKEY"))) {
            return SqlFailure.DUPLICATE_KEY;
        }
        if (code == 18 || message.contains("SQLITE_TOOBIG")) {
            return SqlFailure.PACKET_TOO_LARGE;
        }
        if (message.contains("closed") || hasCause(e)) {
            return SqlFailure.CONNECTION_LOST;
        }
        return SqlFailure.OTHER;
    }

    private static boolean hasCause(Throwable e) {
        for (Throwable t = e.getCause(); t != null && t != t.getCause(); t = t.getCause()) {
            if (t instanceof IOException) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void beforeConnect(String url) throws TargetException {
        // SQLite creates the file but not its folder; a config naming results/ycsbivs.db should just work.
        Path parent = file(url).getParent();
        try {
            if (parent != null) {
                Files.createDirectories(parent);
            }
        } catch (IOException e) {
            throw new TargetException(
                    "cannot create the folder of the SQLite database " + parent + ": " + e.getMessage(), e, false);
        }
    }

    /** The file of the configured URL (query parameters dropped). */
    static Path file(String url) throws TargetException {
        if (!url.startsWith(PREFIX)) {
            throw new TargetException("SQLite URL must start with " + PREFIX + ", got '" + url + "'");
        }
        String path = url.substring(PREFIX.length());
        int q = path.indexOf('?');
        if (q >= 0) {
            path = path.substring(0, q);
        }
        if (path.isEmpty() || path.startsWith(":memory:") || path.startsWith("file:")) {
            throw new TargetException("SQLite URL must name a file (terminals share it through separate"
                    + " connections), got '" + url + "'");
        }
        return Path.of(path).toAbsolutePath();
    }

    @Override
    public String urlForDatabase(String url, String databaseName) throws TargetException {
        Identifiers.require("database", databaseName);
        Path sibling = file(url).resolveSibling(databaseName + ".db");
        int q = url.indexOf('?');
        return PREFIX + sibling + (q >= 0 ? url.substring(q) : "");
    }

    @Override
    public void createDatabase(TargetConfig config, String databaseName, boolean dropFirst) throws TargetException {
        String url = urlForDatabase(config.url(), databaseName);
        if (dropFirst) {
            dropDatabase(config, databaseName);
        }
        Connections.closeQuietly(Connections.open(this, config, url)); // opening creates the file
    }

    @Override
    public void dropDatabase(TargetConfig config, String databaseName) throws TargetException {
        Path file = file(urlForDatabase(config.url(), databaseName));
        try {
            for (String suffix : new String[] {"", "-wal", "-shm", "-journal"}) {
                Files.deleteIfExists(Path.of(file + suffix));
            }
        } catch (IOException e) {
            throw new TargetException("cannot delete SQLite database " + file + ": " + e.getMessage(), e, false);
        }
    }

    @Override
    public Map<String, Object> environment(Connection connection, TargetConfig config) throws SQLException {
        Map<String, Object> env = new LinkedHashMap<>();
        env.put("product", "SQLite");
        try (Statement st = connection.createStatement()) {
            try (ResultSet rs = st.executeQuery("SELECT sqlite_version()")) {
                env.put("version", rs.next() ? rs.getString(1) : null);
            }
            try (ResultSet rs = st.executeQuery("PRAGMA journal_mode")) {
                env.put("journal_mode", rs.next() ? rs.getString(1) : null);
            }
            try (ResultSet rs = st.executeQuery("PRAGMA page_size")) {
                env.put("page_size", rs.next() ? rs.getLong(1) : null);
            }
        }
        env.put("driver", Connections.driver(connection));
        env.put("synchronous", "NORMAL");
        env.put("busy_timeout_ms", BUSY_TIMEOUT_MS);
        try {
            env.put("file", file(config.url()).toString());
        } catch (TargetException e) {
            env.put("file", null);
        }
        return env;
    }

    @Override
    public boolean hasServerCounters() {
        return false;
    }

    @Override
    public Map<String, Double> serverCounters(Connection connection) {
        return Map.of();
    }

    @Override
    public boolean isGauge(String counterName) {
        return false;
    }

    /** Quiet on SQLite: the write-ahead log checkpointed into the database file (and truncated); nothing to poll. */
    @Override
    public SqlQuiescence.Gauges quietGauges() {
        return new SqlQuiescence.Gauges() {
            @Override
            public void settle(Connection connection, String table) throws SQLException {
                try (Statement st = connection.createStatement()) {
                    st.execute("PRAGMA wal_checkpoint(TRUNCATE)");
                }
            }

            @Override
            public List<QuietGauge> read(Connection connection, String table) {
                return List.of();
            }
        };
    }
}
