package org.ivsbench.db.cassandra;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.ivsbench.config.ConfigException;
import org.ivsbench.config.TargetConfig;
import org.ivsbench.db.CounterKind;
import org.ivsbench.db.KindFeatures;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;
import org.ivsbench.db.TargetKind;

import static org.ivsbench.db.KindFeatures.Feature.FRESH_DATABASES;

/**
 * Apache Cassandra through its Java driver: no JDBC driver, no isolation levels. There is no server-side extend:
 * CQL cannot append to a text column (its {@code +} works on collections and counters only) nor compare a
 * column's length in a condition, so one guarded append statement cannot be written; extendmethod=server is
 * refused when the config is checked.
 */
public final class CassandraKind implements TargetKind {

    @Override
    public List<String> names() {
        return List.of("CASSANDRA");
    }

    @Override
    public String displayName() {
        return "Apache Cassandra";
    }

    @Override
    public List<String> urlPrefixes() {
        return List.of(CassandraUrl.PREFIX);
    }

    @Override
    public String exampleUrl() {
        return CassandraUrl.EXAMPLE;
    }

    @Override
    public void checkUrl(String url) throws ConfigException {
        try {
            CassandraUrl.parse(url);
        } catch (IllegalArgumentException e) {
            throw new ConfigException("url", "'" + url + "': " + e.getMessage());
        }
    }

    @Override
    public Optional<String> defaultDriver() {
        return Optional.empty();
    }

    @Override
    public Optional<String> defaultIsolation() {
        return Optional.empty();
    }

    /**
     * Found by the URL's native port only. Cassandra runs as a process named {@code java}, like the benchmark
     * itself and any other JVM on the host, so a fallback by name would pick an arbitrary JVM; with none, a server
     * that cannot be seen listening is reported as not found (a pid file in {@code <monitor>} names it exactly).
     */
    @Override
    public Optional<ServerProcess> serverProcess() {
        return Optional.of(new ServerProcess(null, CassandraUrl.DEFAULT_PORT));
    }

    @Override
    public Map<String, CounterKind> defaultCounters() {
        return ServerViews.DEFAULTS;
    }

    @Override
    public List<String> defaultCounterPrefixes() {
        return ServerViews.TABLE_PREFIXES;
    }

    /**
     * No server extend (see above) and no range delete: partitions are placed by the token (hash) of the text
     * key, and CQL deletes only whole partitions by key equality, so a key range could be deleted only record by
     * record from the client.
     */
    @Override
    public KindFeatures features() {
        return KindFeatures.of(FRESH_DATABASES);
    }

    @Override
    public Target open(TargetConfig config) throws TargetException {
        return CassandraTarget.open(config);
    }
}
