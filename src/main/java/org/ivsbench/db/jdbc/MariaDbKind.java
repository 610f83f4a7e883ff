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

/** MariaDB, and MySQL under its own name: Connector/J for MariaDB serves both, and both URL schemes reach either. */
public final class MariaDbKind implements TargetKind {
    /**
     * The database part of the URL is used as an identifier (it is quoted into SQL when sibling databases are
     * derived from it, and the server reads it as a name): checked like table names, with the characters
     * MariaDB database names commonly use.
     */
    private static final Pattern DATABASE_NAME = Pattern.compile("[A-Za-z0-9_$-]{1,64}");

    @Override
    public List<String> names() {
        return List.of("MARIADB", "MYSQL");
    }

    @Override
    public String displayName() {
        return "MariaDB/MySQL";
    }

    @Override
    public List<String> urlPrefixes() {
        return List.of("jdbc:mariadb://", "jdbc:mysql://");
    }

    @Override
    public String exampleUrl() {
        return "jdbc:mariadb://<host>:<port>/<database> or jdbc:mysql://...";
    }

    @Override
    public void checkUrl(String url) throws ConfigException {
        String database = ServerUrl.parse(url).map(ServerUrl::database).orElse("");
        if (!database.isEmpty() && !DATABASE_NAME.matcher(database).matches()) {
            throw new ConfigException(
                    "url",
                    "database name '" + database + "' is not valid: use letters,"
                            + " digits, '_', '$' and '-', at most 64 characters");
        }
    }

    @Override
    public Optional<String> defaultDriver() {
        return Optional.of("org.mariadb.jdbc.Driver");
    }

    @Override
    public Optional<String> defaultIsolation() {
        // InnoDB's and MyRocks' own default (MyRocks has no SERIALIZABLE at all): the engine as shipped.
        return Optional.of("TRANSACTION_REPEATABLE_READ");
    }

    @Override
    public Optional<ServerProcess> serverProcess() {
        return Optional.of(new ServerProcess("mariadbd", 3306));
    }

    @Override
    public Map<String, CounterKind> defaultCounters() {
        return MariaDbCounters.DEFAULTS;
    }

    @Override
    public List<String> defaultCounterPrefixes() {
        return MariaDbCounters.DEFAULT_PREFIXES;
    }

    @Override
    public List<String> storageEngines() {
        return List.of("InnoDB", "RocksDB");
    }

    @Override
    public Optional<String> storageEngine(String name) {
        // MyRocks is the name RocksDB goes by inside MariaDB's documentation.
        return name.trim().equalsIgnoreCase("myrocks") ? Optional.of("RocksDB") : TargetKind.super.storageEngine(name);
    }

    @Override
    public KindFeatures features() {
        return KindFeatures.of(
                SERVER_EXTEND, RANGE_DELETE, RANGE_BETWEEN, NATIVE_SNAPSHOT, FRESH_DATABASES, REORGANIZATION);
    }

    @Override
    public Target open(TargetConfig config) throws TargetException {
        return JdbcTarget.open(config, this, new MariaDbDialect());
    }
}
