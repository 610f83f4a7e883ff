package org.ivsbench.db;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import org.ivsbench.config.ConfigException;
import org.ivsbench.config.TargetConfig;

/**
 * One kind of database a binding drives, described for everyone who must not know the binding: the config
 * check ({@link TargetKinds#resolve}), the monitor (server process, default counters), the benchmark (storage
 * engines) and the experiment (fresh databases, native snapshot). A binding registers its kinds in
 * {@code META-INF/services/org.ivsbench.db.TargetKind}; nothing else names it. Implementations are stateless.
 */
public interface TargetKind {

    /** The values of {@code <type>} that select this kind, upper case; the first is its main name. */
    List<String> names();

    /** The product as people write it ("MariaDB/MySQL"), for messages. */
    String displayName();

    /** The URL beginnings this kind accepts. */
    List<String> urlPrefixes();

    /** How a URL of this kind looks, for error messages ("jdbc:sqlite:&lt;file&gt;"). */
    String exampleUrl();

    /** Checks a URL that has one of the prefixes further; throws at element {@code url}. */
    default void checkUrl(String url) throws ConfigException {}

    /** The JDBC driver class used when {@code <driver>} is left out; empty: the kind uses no JDBC driver. */
    Optional<String> defaultDriver();

    /** The isolation level used when {@code <isolation>} is left out; empty: isolation levels do not apply. */
    Optional<String> defaultIsolation();

    /** The server's process on this host; empty when the database runs inside the benchmark (embedded). */
    Optional<ServerProcess> serverProcess();

    /** The server counters the monitor keeps by default, with how each is reported. */
    default Map<String, CounterKind> defaultCounters() {
        return Map.of();
    }

    /** Name beginnings the monitor keeps by default besides {@link #defaultCounters()} (a whole family). */
    default List<String> defaultCounterPrefixes() {
        return List.of();
    }

    /** The storage engines a table can be given, the default first; empty when the kind has no choice. */
    default List<String> storageEngines() {
        return List.of();
    }

    /** The engine {@code name} stands for, as {@link #storageEngines()} spells it; empty when unknown. */
    default Optional<String> storageEngine(String name) {
        for (String engine : storageEngines()) {
            if (engine.toLowerCase(Locale.ROOT).equals(name.trim().toLowerCase(Locale.ROOT))) {
                return Optional.of(engine);
            }
        }
        return Optional.empty();
    }

    /** What the kind can do beyond the record operations (server extend, range delete, snapshots, databases). */
    KindFeatures features();

    /** Whether the URL has one of {@link #urlPrefixes()}. */
    default boolean accepts(String url) {
        for (String prefix : urlPrefixes()) {
            if (url.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    /** Opens a target for a configuration {@link TargetKinds#resolve} accepted for this kind. */
    Target open(TargetConfig config) throws TargetException;

    /**
     * Where the server runs on this host: the process that listens on the URL's port (or {@code defaultPort}
     * when the URL gives none), falling back to the process name.
     */
    record ServerProcess(String processName, int defaultPort) {}
}
