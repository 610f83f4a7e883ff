package org.ivsbench.db.mongo;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.MongoCommandException;
import com.mongodb.MongoCredential;
import com.mongodb.MongoException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoCursor;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Sorts;
import org.bson.BSONException;
import org.bson.Document;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.ivsbench.config.TargetConfig;
import org.ivsbench.db.CounterKind;
import org.ivsbench.db.DatabaseAdmin;
import org.ivsbench.db.Record;
import org.ivsbench.db.ServerActivity;
import org.ivsbench.db.ServerInfo;
import org.ivsbench.db.Session;
import org.ivsbench.db.StatusCounters;
import org.ivsbench.db.TableSpec;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;
import org.ivsbench.db.TargetKind;

/**
 * The MongoDB target: one database of one deployment, reached through one {@link MongoClient} (the driver
 * pools connections, so sessions are light wrappers that share it). A table is a collection of documents
 * {@code {_id: key, field0: "...", ...}}; see {@link FieldNames} for the field names and
 * {@link MongoOptions} for the options. See package-info for what the tests against the stand-in prove.
 */
public final class MongoTarget implements Target, ServerInfo, StatusCounters, DatabaseAdmin {
    static final TargetKind KIND = new MongoKind();

    private static final Logger LOG = LoggerFactory.getLogger(MongoTarget.class);

    /** Update pipelines (what extendmethod=server needs) arrived with MongoDB 4.2, wire version 8. */
    static final int PIPELINE_WIRE_VERSION = 8;

    static final int DEFAULT_MAX_BSON_OBJECT_SIZE = 16 * 1024 * 1024;
    static final String NO_PIPELINES = "server does not support update pipelines";

    private static final Pattern AUTH_SOURCE = Pattern.compile("[?&]authSource=([^&]+)");

    private final MongoClientSettings settings;
    private final MongoOptions options;
    private final TestHooks hooks;
    private final MongoClient client;
    private final MongoDatabase database;
    private final FieldNames names;
    private final int maxBsonObjectSize;
    private final int maxWireVersion;
    /** Shared with the targets {@link #withDatabase} makes: an experiment's fresh databases do not repeat it. */
    private final AtomicBoolean pipelineWarningLogged;

    /** For tests only: observe the client's commands and collect warnings instead of logging them. */
    record TestHooks(Consumer<MongoClientSettings.Builder> settings, Consumer<String> warnings) {
        static final TestHooks NONE = new TestHooks(b -> {}, LOG::warn);
    }

    private MongoTarget(
            MongoClientSettings settings,
            MongoOptions options,
            TestHooks hooks,
            String databaseName,
            AtomicBoolean pipelineWarningLogged)
            throws TargetException {
        this.pipelineWarningLogged = pipelineWarningLogged;
        this.settings = settings;
        this.options = options;
        this.hooks = hooks;
        this.names = new FieldNames(options.lowercaseFields());
        this.client = MongoClients.create(settings);
        try {
            this.database = client.getDatabase(databaseName);
            // One round trip now: a wrong host or bad credentials fail at open, not in the first measured operation.
            Document hello = hello(client.getDatabase("admin"));
            this.maxBsonObjectSize = intOr(hello.get("maxBsonObjectSize"), DEFAULT_MAX_BSON_OBJECT_SIZE);
            this.maxWireVersion = intOr(hello.get("maxWireVersion"), 0);
        } catch (RuntimeException e) {
            client.close();
            throw MongoErrors.failure("connect", e);
        }
    }

    public static Target open(TargetConfig config) throws TargetException {
        return open(config, TestHooks.NONE);
    }

    static MongoTarget open(TargetConfig config, TestHooks hooks) throws TargetException {
        MongoOptions options = MongoOptions.parse(config.options());
        ConnectionString url;
        try {
            url = new ConnectionString(config.url());
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new TargetException("bad MongoDB url (want mongodb://host:port/<database>): " + e.getMessage());
        }
        String databaseName = url.getDatabase();
        if (databaseName == null || databaseName.isBlank()) {
            throw new TargetException("the MongoDB url names no database: want mongodb://host:port/<database>");
        }
        MongoClientSettings.Builder builder = MongoClientSettings.builder().applyConnectionString(url);
        // The driver retries a read or write once on a network error by default: a dropped connection would then
        // show as latency instead of as the operation's error (docs/trust.md). Off unless the URL asks.
        builder.retryReads(Boolean.TRUE.equals(url.getRetryReads()));
        builder.retryWrites(Boolean.TRUE.equals(url.getRetryWritesValue()));
        if (config.username() != null && !config.username().isBlank()) {
            // As in a MongoDB URL, the credentials live in authSource when given, else in the URL's database.
            Matcher m = AUTH_SOURCE.matcher(config.url());
            String source = m.find() ? m.group(1) : databaseName;
            char[] password =
                    config.password() == null ? new char[0] : config.password().toCharArray();
            builder.credential(MongoCredential.createCredential(config.username(), source, password));
        }
        if (options.writeConcern() != null) {
            builder.writeConcern(options.writeConcern());
        }
        if (options.readPreference() != null) {
            builder.readPreference(options.readPreference());
        }
        if (options.tls() != null || options.tlsAllowInvalidHostnames() != null) {
            builder.applyToSslSettings(ssl -> {
                if (options.tls() != null) {
                    ssl.enabled(options.tls());
                }
                if (options.tlsAllowInvalidHostnames() != null) {
                    ssl.invalidHostNameAllowed(options.tlsAllowInvalidHostnames());
                }
            });
        }
        hooks.settings().accept(builder);
        return new MongoTarget(builder.build(), options, hooks, databaseName, new AtomicBoolean());
    }

    /** The driver settings this target's clients are made with (for tests). */
    MongoClientSettings clientSettings() {
        return settings;
    }

    @Override
    public TargetKind kind() {
        return KIND;
    }

    @Override
    public Session openSession() {
        return new MongoSession(this);
    }

    @Override
    public void createTable(TableSpec table) throws TargetException {
        // TableSpec.engine is a MariaDB choice; MongoDB's storage engine is a server setting (see environment()).
        try {
            database.getCollection(table.name()).drop();
            database.createCollection(table.name());
        } catch (RuntimeException e) {
            throw MongoErrors.failure("create collection " + table.name(), e);
        }
    }

    @Override
    public void dropTable(String table) throws TargetException {
        try {
            database.getCollection(table).drop();
        } catch (RuntimeException e) {
            throw MongoErrors.failure("drop collection " + table, e);
        }
    }

    @Override
    public long countRecords(String table) throws TargetException {
        try {
            return database.getCollection(table).countDocuments();
        } catch (RuntimeException e) {
            throw MongoErrors.failure("count " + table, e);
        }
    }

    @Override
    public void forEachRecord(String table, Consumer<Record> consumer) throws TargetException {
        // The cursor fetches batches (at most 16 MiB each), so memory stays bounded whatever the collection size.
        try (MongoCursor<Document> cursor = database.getCollection(table)
                .find()
                .sort(Sorts.ascending(FieldNames.ID))
                .iterator()) {
            while (cursor.hasNext()) {
                Document doc = cursor.next();
                Map<String, String> fields = new LinkedHashMap<>();
                String key = null;
                for (Map.Entry<String, Object> e : doc.entrySet()) {
                    if (FieldNames.ID.equals(e.getKey())) {
                        key = String.valueOf(e.getValue());
                    } else {
                        fields.put(names.fromDocument(e.getKey()), String.valueOf(e.getValue()));
                    }
                }
                consumer.accept(new Record(key, fields));
            }
        } catch (MongoException | BSONException e) {
            // Only the driver's failures: an exception thrown by the consumer is the caller's and passes as is.
            throw MongoErrors.failure("scan of " + table, e);
        }
    }

    @Override
    public Map<String, Object> environment() throws TargetException {
        Map<String, Object> env = new LinkedHashMap<>();
        env.put("product", "MongoDB");
        env.put("database", database.getName());
        env.put("maxBsonObjectSize", maxBsonObjectSize);
        env.put("maxWireVersion", maxWireVersion);
        env.put("updatePipelines", supportsPipelines());
        env.put("extendFallback", options.extendFallback().name().toLowerCase(Locale.ROOT));
        env.put("lowercaseFields", options.lowercaseFields());
        // An empty write concern document means "the server's default" (acknowledged, w:1 unless configured).
        String writeConcern = settings.getWriteConcern().asDocument().toJson();
        env.put("writeConcern", "{}".equals(writeConcern) ? "server default" : writeConcern);
        env.put("readPreference", settings.getReadPreference().getName());
        env.put("driver", "mongodb-driver-sync " + driverVersion());
        MongoDatabase admin = client.getDatabase("admin");
        try {
            Document build = admin.runCommand(new Document("buildInfo", 1));
            env.put("serverVersion", build.get("version"));
            if (build.get("gitVersion") != null) {
                env.put("gitVersion", build.get("gitVersion"));
            }
        } catch (MongoCommandException e) {
            env.put("serverVersion", "unavailable: " + e.getErrorCodeName());
        } catch (RuntimeException e) {
            throw MongoErrors.failure("buildInfo", e);
        }
        Document status = serverStatusOrNull(admin, env);
        if (status != null) {
            Object engine = ServerCounters.at(status, List.of("storageEngine", "name"));
            env.put("storageEngine", engine == null ? "unknown (serverStatus has no storageEngine)" : engine);
            Object cache = ServerCounters.at(status, List.of("wiredTiger", "cache", "maximum bytes configured"));
            if (cache != null) {
                env.put("wiredTigerCacheSizeBytes", cache);
            }
            if (status.get("process") != null) {
                env.put("serverProcess", status.get("process"));
            }
            // mongo-java-server answers serverStatus as process "java" with no storage engine: a real mongod
            // says "mongod" (or "mongos"). Say so, so no one mistakes stand-in numbers for MongoDB's.
            if ("java".equals(status.get("process")) && engine == null) {
                env.put("standIn", "mongo-java-server (wire-protocol stand-in, not MongoDB)");
            }
        }
        return env;
    }

    @Override
    public Map<String, Double> snapshot() throws TargetException {
        Map<String, Object> ignored = new LinkedHashMap<>();
        Document status = serverStatusOrNull(client.getDatabase("admin"), ignored);
        return status == null ? Map.of() : ServerCounters.from(status);
    }

    @Override
    public CounterKind kindOf(String counterName) {
        return ServerCounters.GAUGE_NAMES.contains(counterName) ? CounterKind.GAUGE : CounterKind.COUNTER;
    }

    @Override
    public Target withDatabase(String databaseName) throws TargetException {
        // Its own client with the same settings: the two targets can be closed independently.
        return new MongoTarget(settings, options, hooks, databaseName, pipelineWarningLogged);
    }

    @Override
    public void dropDatabase(String databaseName) throws TargetException {
        try {
            client.getDatabase(databaseName).drop();
        } catch (RuntimeException e) {
            throw MongoErrors.failure("drop database " + databaseName, e);
        }
    }

    @Override
    public void createDatabase(String databaseName, boolean dropFirst) throws TargetException {
        // MongoDB creates a database with its first collection; only the drop has something to do.
        if (dropFirst) {
            try {
                client.getDatabase(databaseName).drop();
            } catch (RuntimeException e) {
                throw MongoErrors.failure("drop database " + databaseName, e);
            }
        }
    }

    /** The activity snapshot (currentOp) besides the capabilities this class implements. */
    @Override
    public <T> Optional<T> capability(Class<T> type) {
        if (type == ServerActivity.class) {
            return Optional.of(type.cast(new MongoActivity(client.getDatabase("admin"))));
        }
        return Target.super.capability(type);
    }

    @Override
    public void close() {
        client.close();
    }

    // ---- for MongoSession

    MongoCollection<Document> collection(String table) {
        return database.getCollection(table);
    }

    FieldNames names() {
        return names;
    }

    int maxBsonObjectSize() {
        return maxBsonObjectSize;
    }

    MongoOptions options() {
        return options;
    }

    boolean supportsPipelines() {
        return maxWireVersion >= PIPELINE_WIRE_VERSION;
    }

    /** Called on every server extend that has to fall back; logs only the first time per target and its siblings. */
    void warnPipelineFallbackOnce() {
        if (pipelineWarningLogged.compareAndSet(false, true)) {
            hooks.warnings()
                    .accept(NO_PIPELINES + "; server-side extends fall back to client-side ones (server wire version "
                            + maxWireVersion + ", pipelines need " + PIPELINE_WIRE_VERSION + " = MongoDB 4.2)");
        }
    }

    // ---- helpers

    private static Document hello(MongoDatabase admin) {
        try {
            return admin.runCommand(new Document("hello", 1));
        } catch (MongoCommandException e) {
            // Servers before 4.4.2 (and the stand-in) only know the legacy name.
            return admin.runCommand(new Document("isMaster", 1));
        }
    }

    /** serverStatus needs the clusterMonitor role; without it the run goes on with what we know. */
    private static Document serverStatusOrNull(MongoDatabase admin, Map<String, Object> env) throws TargetException {
        try {
            return admin.runCommand(new Document("serverStatus", 1));
        } catch (MongoCommandException e) {
            env.put("serverStatus", "unavailable: " + e.getErrorCodeName());
            return null;
        } catch (RuntimeException e) {
            throw MongoErrors.failure("serverStatus", e);
        }
    }

    private static int intOr(Object value, int fallback) {
        return value instanceof Number n ? n.intValue() : fallback;
    }

    private static String driverVersion() {
        String v = MongoClient.class.getPackage().getImplementationVersion();
        return v == null ? "unknown" : v;
    }
}
