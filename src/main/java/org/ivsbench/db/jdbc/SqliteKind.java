package org.ivsbench.db.jdbc;

import java.util.List;
import java.util.Optional;

import org.ivsbench.config.TargetConfig;
import org.ivsbench.db.KindFeatures;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;
import org.ivsbench.db.TargetKind;

import static org.ivsbench.db.KindFeatures.Feature.FRESH_DATABASES;
import static org.ivsbench.db.KindFeatures.Feature.RANGE_BETWEEN;
import static org.ivsbench.db.KindFeatures.Feature.RANGE_DELETE;
import static org.ivsbench.db.KindFeatures.Feature.SERVER_EXTEND;

/** SQLite: embedded, one file per database, no server counters. */
public final class SqliteKind implements TargetKind {

    @Override
    public List<String> names() {
        return List.of("SQLITE");
    }

    @Override
    public String displayName() {
        return "SQLite";
    }

    @Override
    public List<String> urlPrefixes() {
        return List.of("jdbc:sqlite:");
    }

    @Override
    public String exampleUrl() {
        return "jdbc:sqlite:<file>";
    }

    @Override
    public Optional<String> defaultDriver() {
        return Optional.of("org.sqlite.JDBC");
    }

    @Override
    public Optional<String> defaultIsolation() {
        // SQLite only ever runs serializable.
        return Optional.of("TRANSACTION_SERIALIZABLE");
    }

    @Override
    public Optional<ServerProcess> serverProcess() {
        return Optional.empty();
    }

    @Override
    public KindFeatures features() {
        return KindFeatures.of(SERVER_EXTEND, RANGE_DELETE, RANGE_BETWEEN, FRESH_DATABASES);
    }

    @Override
    public Target open(TargetConfig config) throws TargetException {
        return JdbcTarget.open(config, this, new SqliteDialect());
    }
}
