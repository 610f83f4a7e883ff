package org.ivsbench.db.jdbc;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

import org.ivsbench.config.TargetConfig;
import org.ivsbench.db.CounterKind;
import org.ivsbench.db.DatabaseAdmin;
import org.ivsbench.db.NativeSnapshot;
import org.ivsbench.db.Quiescence;
import org.ivsbench.db.Record;
import org.ivsbench.db.ServerActivity;
import org.ivsbench.db.ServerClock;
import org.ivsbench.db.ServerInfo;
import org.ivsbench.db.ServerSettings;
import org.ivsbench.db.Session;
import org.ivsbench.db.StatusCounters;
import org.ivsbench.db.TableSpec;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;
import org.ivsbench.db.TargetKind;

/**
 * A SQL database through JDBC: MariaDB/MySQL, PostgreSQL or SQLite, the differences kept in a {@link Dialect}.
 * Knows nothing of benchmarks: it works on any {@link TableSpec}. Thread-safe; every session owns one
 * connection, and the target opens short-lived connections of its own for DDL and the environment.
 *
 * <p>Server counters are read over one dedicated connection, opened at the first {@link #snapshot()}
 * and kept until {@link #close()}: the monitor reads them every interval, and a connection per read would
 * itself show up in what it measures (Connections, thread creation, the handshake's Com_* statements) and
 * cost the server an authentication each second. The price is one idle connection in Threads_connected.
 */
public final class JdbcTarget implements Target, ServerInfo, StatusCounters, DatabaseAdmin {
    private final TargetConfig config;
    private final TargetKind kind;
    private final Dialect dialect;
    private final SqlStatements statements;
    private final Map<String, TableLayout> layouts = new ConcurrentHashMap<>();
    private final Set<String> validFields = ConcurrentHashMap.newKeySet();
    private volatile Map<String, String> learned = Map.of();
    /** Guards {@link #counterConnection} and {@link #closed}: the monitor thread reads, any thread closes. */
    private final Object counterLock = new Object();

    private Connection counterConnection;
    private boolean closed;

    private JdbcTarget(TargetConfig config, TargetKind kind, Dialect dialect) {
        this.config = config;
        this.kind = kind;
        this.dialect = dialect;
        this.statements = new SqlStatements(dialect);
    }

    static JdbcTarget open(TargetConfig config, TargetKind kind, Dialect dialect) throws TargetException {
        if (config.url() == null || config.url().isBlank()) {
            throw new TargetException("target url is missing");
        }
        if (config.driver() != null && !config.driver().isBlank()) {
            try {
                Class.forName(config.driver());
            } catch (ClassNotFoundException e) {
                throw new TargetException(
                        "JDBC driver class '" + config.driver() + "' is not on the class path", e, false);
            }
        }
        Connections.isolationLevel(config.isolation()); // fail on a bad name before anything else
        JdbcTarget target = new JdbcTarget(config, kind, dialect);
        // Connect now to fail with the reason here rather than in every terminal, and learn server limits.
        try (Connection first = target.connect()) {
            Map<String, String> learned = new HashMap<>(dialect.learnFromServer(first));
            learned.keySet().removeAll(config.options().keySet()); // the user's explicit option wins
            target.learned = Map.copyOf(learned);
        } catch (SQLException e) {
            throw target.failure("read server limits", e);
        }
        return target;
    }

    Dialect dialect() {
        return dialect;
    }

    SqlStatements statements() {
        return statements;
    }

    Connection connect() throws TargetException {
        return Connections.open(dialect, config, config.url(), learned);
    }

    @Override
    public TargetKind kind() {
        return kind;
    }

    /**
     * What the dialect declares: counters only where the database has some, the native snapshot where the product
     * has the tools, the activity snapshot where the server can show one, the server's clock (an embedded
     * database's is this host's), quiescence where the dialect defines quiet, the running server's settings where
     * the dialect has a query for them.
     */
    @Override
    public <T> Optional<T> capability(Class<T> type) {
        if (type == StatusCounters.class && !dialect.hasServerCounters()) {
            return Optional.empty();
        }
        if (type == NativeSnapshot.class) {
            return Optional.ofNullable(dialect.nativeSnapshot(config, this)).map(type::cast);
        }
        if (type == ServerClock.class) {
            String sql = dialect.serverClockSql();
            return Optional.of(type.cast(sql == null ? ServerClock.EMBEDDED : new JdbcServerClock(this, sql)));
        }
        if (type == Quiescence.class) {
            SqlQuiescence.Gauges gauges = dialect.quietGauges();
            return gauges == null ? Optional.empty() : Optional.of(type.cast(new SqlQuiescence(this, gauges)));
        }
        if (type == ServerActivity.class) {
            return Optional.ofNullable(dialect.activity(this)).map(type::cast);
        }
        if (type == org.ivsbench.db.Reorganization.class) {
            return Optional.ofNullable(dialect.reorganization(this)).map(type::cast);
        }
        if (type == ServerSettings.class) {
            String sql = dialect.liveSettingsSql();
            return sql == null ? Optional.empty() : Optional.of(type.cast(new JdbcServerSettings(this, sql)));
        }
        return Target.super.capability(type);
    }

    @Override
    public Session openSession() throws TargetException {
        return new JdbcSession(this, connect());
    }

    @Override
    public void createTable(TableSpec table) throws TargetException {
        Identifiers.require("table", table.name());
        Identifiers.require("key column", table.keyColumn());
        checkFields(table.fields());
        try (Connection c = connect();
                Statement st = c.createStatement()) {
            dialect.checkEngine(c, table);
            st.execute(statements.drop(table.name()));
            st.execute(statements.createTable(table));
            layouts.put(table.name(), new TableLayout(table.keyColumn(), table.fields()));
        } catch (SQLException e) {
            throw failure("create table " + table.name(), e);
        }
    }

    @Override
    public void dropTable(String table) throws TargetException {
        Identifiers.require("table", table);
        try (Connection c = connect();
                Statement st = c.createStatement()) {
            st.execute(statements.drop(table));
            layouts.remove(table);
        } catch (SQLException e) {
            throw failure("drop table " + table, e);
        }
    }

    @Override
    public long countRecords(String table) throws TargetException {
        layout(table);
        try (Connection c = connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(statements.count(table))) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            throw failure("count records of " + table, e);
        }
    }

    @Override
    public void forEachRecord(String table, Consumer<Record> consumer) throws TargetException {
        TableLayout layout = layout(table);
        // A connection of its own: a streaming result set occupies its connection until fully read.
        try (Connection c = connect();
                PreparedStatement ps = c.prepareStatement(
                        statements.scanAll(table, layout.keyColumn(), layout.fields()),
                        ResultSet.TYPE_FORWARD_ONLY,
                        ResultSet.CONCUR_READ_ONLY)) {
            dialect.beforeStreaming(c);
            ps.setFetchSize(dialect.streamingFetchSize());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Map<String, String> fields = new LinkedHashMap<>();
                    for (int i = 0; i < layout.fields().size(); i++) {
                        fields.put(layout.fields().get(i), rs.getString(i + 2));
                    }
                    consumer.accept(new Record(rs.getString(1), fields));
                }
            }
        } catch (SQLException e) {
            throw failure("read all records of " + table, e);
        }
    }

    @Override
    public Map<String, Object> environment() throws TargetException {
        try (Connection c = connect()) {
            return dialect.environment(c, config);
        } catch (SQLException e) {
            throw failure("read server environment", e);
        }
    }

    @Override
    public Map<String, Object> settings() throws TargetException {
        try (Connection c = connect()) {
            return dialect.settings(c);
        } catch (SQLException e) {
            throw failure("read server settings", e);
        }
    }

    @Override
    public Optional<String> tableEngine(String table) throws TargetException {
        Identifiers.require("table", table);
        try (Connection c = connect()) {
            return Optional.ofNullable(dialect.tableEngine(c, table));
        } catch (SQLException e) {
            throw failure("read the storage engine of " + table, e);
        }
    }

    @Override
    public Map<String, Double> snapshot() throws TargetException {
        if (!dialect.hasServerCounters()) {
            return Map.of(); // nothing to ask, so no connection either
        }
        return onCounterConnection("read server counters", dialect::serverCounters);
    }

    /** A read the monitor makes every interval (counters, settings). */
    @FunctionalInterface
    interface CounterRead<T> {
        T read(Connection connection) throws SQLException;
    }

    /**
     * {@code read} on the kept counter connection, opened at the first call: the monitor's reads share it, one
     * at a time, so they cost the server one idle connection whatever they read.
     */
    <T> T onCounterConnection(String what, CounterRead<T> read) throws TargetException {
        synchronized (counterLock) {
            if (closed) {
                throw new TargetException(what + ": the target is closed");
            }
            boolean reused = counterConnection != null;
            while (true) {
                if (counterConnection == null) {
                    counterConnection = connect();
                }
                try {
                    return read.read(counterConnection);
                } catch (SQLException e) {
                    TargetException failure = failure(what, e);
                    Connections.closeQuietly(counterConnection);
                    counterConnection = null;
                    // A kept connection can have been lost since the last interval (server restart, KILL,
                    // wait_timeout): one fresh connection and one more try. A connection just opened that
                    // fails, or any other failure, is the answer; the next call opens a new one.
                    if (!reused || !failure.connectionLost()) {
                        throw failure;
                    }
                    reused = false;
                }
            }
        }
    }

    /** The kept counter connection, or null: for tests that kill it. */
    Connection counterConnection() {
        synchronized (counterLock) {
            return counterConnection;
        }
    }

    @Override
    public CounterKind kindOf(String counterName) {
        return dialect.isGauge(counterName) ? CounterKind.GAUGE : CounterKind.COUNTER;
    }

    @Override
    public Target withDatabase(String databaseName) throws TargetException {
        TargetConfig other = config.withUrl(dialect.urlForDatabase(config.url(), databaseName));
        return open(other, kind, dialect);
    }

    @Override
    public void dropDatabase(String databaseName) throws TargetException {
        dialect.dropDatabase(config, databaseName);
    }

    @Override
    public void createDatabase(String databaseName, boolean dropFirst) throws TargetException {
        dialect.createDatabase(config, databaseName, dropFirst);
    }

    @Override
    public void close() {
        // Sessions own their connections and DDL connections are closed after use; only the counter
        // connection is the target's. Later snapshot() calls fail rather than open a new one.
        synchronized (counterLock) {
            closed = true;
            Connections.closeQuietly(counterConnection);
            counterConnection = null;
        }
    }

    /** The table's layout, learnt from createTable or else from the catalog (primary key = key column). */
    TableLayout layout(String table) throws TargetException {
        TableLayout layout = layouts.get(table);
        if (layout != null) {
            return layout;
        }
        Identifiers.require("table", table);
        try (Connection c = connect()) {
            DatabaseMetaData meta = c.getMetaData();
            String catalog = c.getCatalog();
            String key = null;
            try (ResultSet rs = meta.getPrimaryKeys(catalog, null, table)) {
                while (rs.next()) {
                    if (key != null) {
                        throw new TargetException("table " + table + " has a composite primary key; a key/value"
                                + " table needs exactly one key column");
                    }
                    key = rs.getString("COLUMN_NAME");
                }
            }
            if (key == null) {
                throw new TargetException("table " + table + " does not exist or has no primary key");
            }
            List<String> fields = new ArrayList<>();
            try (ResultSet rs = meta.getColumns(catalog, null, table, null)) {
                while (rs.next()) {
                    String column = rs.getString("COLUMN_NAME");
                    if (!column.equals(key)) {
                        fields.add(column);
                    }
                }
            }
            checkFields(fields);
            layout = new TableLayout(key, fields);
            layouts.put(table, layout);
            return layout;
        } catch (SQLException e) {
            throw failure("read the layout of " + table, e);
        }
    }

    /** Validates field names once per target; the result is the same list. */
    List<String> checkFields(List<String> fields) throws TargetException {
        for (String field : fields) {
            if (!validFields.contains(field)) {
                validFields.add(Identifiers.require("field", field));
            }
        }
        return fields;
    }

    TargetException failure(String what, SQLException e) {
        SqlFailure failure = dialect.classify(e);
        return new TargetException(
                what + " failed (" + failure.reason() + "): " + e.getMessage(),
                e,
                failure == SqlFailure.CONNECTION_LOST);
    }
}
