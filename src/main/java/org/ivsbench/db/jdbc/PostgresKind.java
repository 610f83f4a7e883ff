package org.ivsbench.db.jdbc;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

import org.ivsbench.config.ConfigException;
import org.ivsbench.config.TargetConfig;
import org.ivsbench.db.CounterKind;
import org.ivsbench.db.KindFeatures;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;
import org.ivsbench.db.TargetKind;

import static org.ivsbench.db.KindFeatures.Feature.FRESH_DATABASES;
import static org.ivsbench.db.KindFeatures.Feature.NATIVE_SNAPSHOT;
import static org.ivsbench.db.KindFeatures.Feature.RANGE_BETWEEN;
import static org.ivsbench.db.KindFeatures.Feature.RANGE_DELETE;
import static org.ivsbench.db.KindFeatures.Feature.REORGANIZATION;
import static org.ivsbench.db.KindFeatures.Feature.SERVER_EXTEND;

/**
 * PostgreSQL through pgjdbc. A dialect of the JDBC binding rather than a package of its own: the record
 * operations, the locked client extend, the guarded server extend, batching and the outcome mapping are the
 * JDBC binding's, and only SQL text, error classes, counters and database administration differ.
 */
public final class PostgresKind implements TargetKind {
    /** The URL's database becomes an identifier when sibling databases are derived from it (63 bytes at most). */
    private static final Pattern DATABASE_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,62}");

    @Override
    public List<String> names() {
        return List.of("POSTGRESQL", "POSTGRES");
    }

    @Override
    public String displayName() {
        return "PostgreSQL";
    }

    @Override
    public List<String> urlPrefixes() {
        return List.of("jdbc:postgresql://");
    }

    @Override
    public String exampleUrl() {
        return "jdbc:postgresql://<host>:<port>/<database>";
    }

    @Override
    public void checkUrl(String url) throws ConfigException {
        String database = ServerUrl.parse(url).map(ServerUrl::database).orElse("");
        if (database.isEmpty()) {
            throw new ConfigException(
                    "url", "'" + ServerUrl.withoutOptions(url) + "' names no database: use " + exampleUrl());
        }
        if (!DATABASE_NAME.matcher(database).matches()) {
            throw new ConfigException(
                    "url",
                    "database name '" + database + "' is not valid: use letters, digits"
                            + " and '_', not starting with a digit, at most 63 characters");
        }
    }

    @Override
    public Optional<String> defaultDriver() {
        return Optional.of("org.postgresql.Driver");
    }

    @Override
    public Optional<String> defaultIsolation() {
        // PostgreSQL's own default. The client extend's row lock keeps appends lossless here; at REPEATABLE READ
        // a terminal that waited for the lock would abort with a serialization failure instead.
        return Optional.of("TRANSACTION_READ_COMMITTED");
    }

    @Override
    public Optional<ServerProcess> serverProcess() {
        return Optional.of(new ServerProcess("postgres", 5432));
    }

    @Override
    public Map<String, CounterKind> defaultCounters() {
        return PostgresCounters.DEFAULTS;
    }

    @Override
    public List<String> defaultCounterPrefixes() {
        return PostgresCounters.DEFAULT_PREFIXES;
    }

    /** The native snapshot is pg_dump and psql ({@link PostgresNativeSnapshot}); the client tools must be installed. */
    @Override
    public KindFeatures features() {
        return KindFeatures.of(
                SERVER_EXTEND, RANGE_DELETE, RANGE_BETWEEN, NATIVE_SNAPSHOT, FRESH_DATABASES, REORGANIZATION);
    }

    @Override
    public Target open(TargetConfig config) throws TargetException {
        return JdbcTarget.open(config, this, new PostgresDialect());
    }
}
