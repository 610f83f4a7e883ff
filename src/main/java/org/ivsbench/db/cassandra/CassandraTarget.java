package org.ivsbench.db.cassandra;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.CqlSessionBuilder;
import com.datastax.oss.driver.api.core.DriverException;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.NodeState;

import org.ivsbench.config.TargetConfig;
import org.ivsbench.db.CounterKind;
import org.ivsbench.db.DatabaseAdmin;
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
 * The Cassandra target: one keyspace of one cluster, reached through one driver session (it pools connections
 * to every node), shared by all sessions of the target. A table is {@code (key text PRIMARY KEY, field0 text,
 * ...)}: one partition per record, so records spread over the ring as YCSB's binding spreads them. The keyspace
 * is created at open when missing (SimpleStrategy, the replicationFactor option). See {@link CassandraOptions}.
 */
public final class CassandraTarget implements Target, ServerInfo, StatusCounters, DatabaseAdmin {
    static final TargetKind KIND = new CassandraKind();

    /** Administrative statements (DDL, counting a table) may take far longer than one record's request. */
    private static final Duration ADMIN_TIMEOUT = Duration.ofMinutes(10);

    private final CassandraUrl url;
    private final CassandraOptions options;
    private final TargetConfig config;
    private final CqlSession session;
    private final Statements statements;

    private CassandraTarget(TargetConfig config, CassandraUrl url, CassandraOptions options) throws TargetException {
        this.config = config;
        this.url = url;
        this.options = options;
        this.session = connect(config, url, options);
        try {
            createKeyspace(url.keyspace(), false);
        } catch (TargetException | RuntimeException e) {
            session.close();
            throw e;
        }
        this.statements = new Statements(session, url.keyspace());
    }

    public static Target open(TargetConfig config) throws TargetException {
        return openTarget(config);
    }

    static CassandraTarget openTarget(TargetConfig config) throws TargetException {
        CassandraOptions options = CassandraOptions.parse(config.options());
        CassandraUrl url;
        try {
            url = CassandraUrl.parse(config.url());
        } catch (IllegalArgumentException e) {
            throw new TargetException("bad Cassandra url '" + config.url() + "': " + e.getMessage());
        }
        return new CassandraTarget(config, url, options);
    }

    private static CqlSession connect(TargetConfig config, CassandraUrl url, CassandraOptions options)
            throws TargetException {
        // Programmatic settings only; the driver's reference.conf supplies the rest. A node that comes back is
        // looked for every 100 ms to 1 s (the driver's default waits up to 60 s between attempts); nothing is
        // retried (NoRetryPolicy) and nothing is sent twice (speculative executions stay off, the default).
        DriverConfigLoader loader = DriverConfigLoader.programmaticBuilder()
                .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofMillis(options.requestTimeoutMs()))
                .withString(
                        DefaultDriverOption.REQUEST_CONSISTENCY,
                        options.readConsistency().name())
                .withString(
                        DefaultDriverOption.REQUEST_SERIAL_CONSISTENCY,
                        options.serialConsistency().name())
                .withString(DefaultDriverOption.RETRY_POLICY_CLASS, NoRetryPolicy.class.getName())
                // The server warns about every COUNT(*) over a table (countRecords): expected, not worth a log line.
                .withBoolean(DefaultDriverOption.REQUEST_LOG_WARNINGS, false)
                .withDuration(DefaultDriverOption.RECONNECTION_BASE_DELAY, Duration.ofMillis(100))
                .withDuration(DefaultDriverOption.RECONNECTION_MAX_DELAY, Duration.ofSeconds(1))
                .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, Duration.ofSeconds(5))
                .withDuration(DefaultDriverOption.METADATA_SCHEMA_REQUEST_TIMEOUT, Duration.ofSeconds(30))
                .withDuration(DefaultDriverOption.CONTROL_CONNECTION_AGREEMENT_TIMEOUT, Duration.ofSeconds(30))
                .build();
        CqlSessionBuilder builder = CqlSession.builder()
                .withConfigLoader(loader)
                .addContactPoints(url.contactPoints())
                .withLocalDatacenter(url.localDatacenter());
        if (config.username() != null && !config.username().isBlank()) {
            builder.withAuthCredentials(config.username(), config.password() == null ? "" : config.password());
        }
        try {
            return builder.build();
        } catch (RuntimeException e) {
            throw CassandraErrors.failure("connect to " + url.contactPoints(), e);
        }
    }

    @Override
    public TargetKind kind() {
        return KIND;
    }

    /**
     * A light session over the shared driver session. While the driver sees no node up (the server died and is
     * not back yet) this fails as a lost connection, so a reconnecting caller waits with backoff instead of
     * sending requests that can only fail.
     */
    @Override
    public Session openSession() throws TargetException {
        boolean up = session.getMetadata().getNodes().values().stream().anyMatch(n -> n.getState() == NodeState.UP);
        if (!up) {
            throw new TargetException("Cassandra: no node is up (the driver is reconnecting)", null, true);
        }
        return new CassandraSession(this);
    }

    @Override
    public void createTable(TableSpec table) throws TargetException {
        // TableSpec.engine is a MariaDB choice and maxFieldLength needs nothing here: a text value has no declared
        // length (a single mutation is limited by the server's max_mutation_size instead).
        List<String> columns = new ArrayList<>();
        columns.add(Statements.column(table.keyColumn()).toLowerCase(Locale.ROOT) + " text PRIMARY KEY");
        for (String f : table.fields()) {
            columns.add(Statements.column(f) + " text");
        }
        admin("DROP TABLE IF EXISTS " + statements.qualified(table.name()));
        admin("CREATE TABLE " + statements.qualified(table.name()) + " (" + String.join(", ", columns) + ")");
        statements.forget(table.name());
    }

    @Override
    public void dropTable(String table) throws TargetException {
        admin("DROP TABLE IF EXISTS " + statements.qualified(table));
        statements.forget(table);
    }

    /** A full scan of the table (COUNT(*) reads every partition), at the read consistency. */
    @Override
    public long countRecords(String table) throws TargetException {
        Row row = admin("SELECT COUNT(*) FROM " + statements.qualified(table)).get(0);
        return row.getLong(0);
    }

    /**
     * Every record in token order, not key order: the default partitioner places partitions by the hash of
     * their key, so token order is the only order a full scan has. It is the same order every time for the same
     * keys, which is what snapshots and checksums need. Paged by the driver (5000 rows a page), so memory stays
     * bounded.
     */
    @Override
    public void forEachRecord(String table, Consumer<Record> consumer) throws TargetException {
        String keyColumn = statements.keyColumn(table);
        try {
            SimpleStatement select = SimpleStatement.newInstance("SELECT * FROM " + statements.qualified(table))
                    .setTimeout(ADMIN_TIMEOUT)
                    .setConsistencyLevel(options.readConsistency());
            for (Row row : session.execute(select)) {
                Map<String, String> fields = new LinkedHashMap<>();
                String key = null;
                for (int i = 0; i < row.getColumnDefinitions().size(); i++) {
                    String name = row.getColumnDefinitions().get(i).getName().asCql(true);
                    if (name.equals(keyColumn)) {
                        key = row.getString(i);
                    } else if (!row.isNull(i)) {
                        fields.put(
                                Statements.field(row.getColumnDefinitions()
                                        .get(i)
                                        .getName()
                                        .asInternal()),
                                row.getString(i));
                    }
                }
                consumer.accept(new Record(key, fields));
            }
        } catch (DriverException e) {
            // Only the driver's failures: an exception thrown by the consumer is the caller's and passes as is.
            throw CassandraErrors.failure("scan of " + table, e);
        }
    }

    @Override
    public Map<String, Object> environment() throws TargetException {
        Map<String, Object> env = new LinkedHashMap<>();
        env.put("product", "Apache Cassandra");
        try {
            Row local = session.execute("SELECT release_version, cluster_name, partitioner, data_center, rack,"
                            + " cql_version, native_protocol_version FROM system.local")
                    .one();
            if (local != null) {
                env.put("serverVersion", local.getString("release_version"));
                env.put("clusterName", local.getString("cluster_name"));
                env.put("partitioner", local.getString("partitioner"));
                env.put("dataCenter", local.getString("data_center"));
                env.put("rack", local.getString("rack"));
                env.put("cqlVersion", local.getString("cql_version"));
                env.put("nativeProtocolVersion", local.getString("native_protocol_version"));
            }
            env.put("nodes", session.getMetadata().getNodes().size());
            Row ks = session.execute(SimpleStatement.newInstance(
                            "SELECT replication FROM system_schema.keyspaces WHERE keyspace_name = ?", url.keyspace()))
                    .one();
            env.put("keyspace", url.keyspace());
            if (ks != null) {
                env.put("replication", ks.getMap("replication", String.class, String.class));
            }
        } catch (RuntimeException e) {
            throw CassandraErrors.failure("read system.local", e);
        }
        env.put("readConsistency", options.readConsistency().name());
        env.put("writeConsistency", options.writeConsistency().name());
        env.put("serialConsistency", options.serialConsistency().name());
        env.put("extendWrite", options.extendWrite().name().toLowerCase(Locale.ROOT));
        env.put("requestTimeoutMs", options.requestTimeoutMs());
        env.put("retries", "none");
        env.put("driver", "java-driver-core " + CqlSession.OSS_DRIVER_COORDINATES.getVersion());
        return env;
    }

    @Override
    public Map<String, Object> settings() throws TargetException {
        try {
            return CassandraQuiet.settings(session);
        } catch (RuntimeException e) {
            throw CassandraErrors.failure("read system_views.settings", e);
        }
    }

    @Override
    public Map<String, Double> snapshot() throws TargetException {
        try {
            return ServerViews.snapshot(session);
        } catch (RuntimeException e) {
            throw CassandraErrors.failure("read system_views", e);
        }
    }

    @Override
    public CounterKind kindOf(String name) {
        return ServerViews.kindOf(name);
    }

    @Override
    public Target withDatabase(String databaseName) throws TargetException {
        // Its own driver session: the two targets can be closed independently.
        return new CassandraTarget(config, url.withKeyspace(databaseName), options);
    }

    @Override
    public void createDatabase(String databaseName, boolean dropFirst) throws TargetException {
        createKeyspace(databaseName, dropFirst);
    }

    @Override
    public void dropDatabase(String databaseName) throws TargetException {
        checkName(databaseName);
        admin("DROP KEYSPACE IF EXISTS " + databaseName);
    }

    /**
     * The quiet decision ({@link CassandraQuiet}), the coordinator's clock ({@link CassandraServerClock}) and the
     * activity snapshot ({@link CassandraActivity}) and every setting of the node ({@code system_views.settings}) beside
     * the capabilities this class implements.
     */
    @Override
    public <T> Optional<T> capability(Class<T> type) {
        if (type == ServerClock.class) {
            return Optional.of(type.cast(new CassandraServerClock(session)));
        }
        if (type == Quiescence.class) {
            return Optional.of(type.cast(new CassandraQuiet(session)));
        }
        if (type == ServerActivity.class) {
            return Optional.of(type.cast(new CassandraActivity(session)));
        }
        if (type == ServerSettings.class) {
            return Optional.of(type.cast((ServerSettings) () -> {
                try {
                    return CassandraQuiet.allSettings(session);
                } catch (RuntimeException e) {
                    throw CassandraErrors.failure("read system_views.settings", e);
                }
            }));
        }
        return Target.super.capability(type);
    }

    @Override
    public void close() {
        session.close();
    }

    // ---- for CassandraSession

    CqlSession session() {
        return session;
    }

    Statements statements() {
        return statements;
    }

    CassandraOptions options() {
        return options;
    }

    // ---- helpers

    private void createKeyspace(String name, boolean dropFirst) throws TargetException {
        checkName(name);
        if (dropFirst) {
            admin("DROP KEYSPACE IF EXISTS " + name);
        }
        admin("CREATE KEYSPACE IF NOT EXISTS " + name + " WITH replication = {'class': 'SimpleStrategy',"
                + " 'replication_factor': " + options.replicationFactor() + "}");
    }

    private static void checkName(String name) throws TargetException {
        if (!CassandraUrl.NAME.matcher(name).matches()) {
            throw new TargetException("'" + name + "' is not a valid Cassandra keyspace name");
        }
    }

    /** A DDL or administrative query with the long timeout; the driver waits for schema agreement after DDL. */
    private List<Row> admin(String cql) throws TargetException {
        try {
            return session.execute(SimpleStatement.newInstance(cql)
                            .setTimeout(ADMIN_TIMEOUT)
                            .setConsistencyLevel(options.readConsistency()))
                    .all();
        } catch (RuntimeException e) {
            throw CassandraErrors.failure(cql, e);
        }
    }
}
