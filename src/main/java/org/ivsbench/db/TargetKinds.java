package org.ivsbench.db;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.ServiceLoader;

import org.ivsbench.config.ConfigException;
import org.ivsbench.config.TargetConfig;

/**
 * The registered {@link TargetKind}s, found with {@link ServiceLoader}, and the check of a config's target
 * section against them: config reads the XML without knowing any database, this class validates type, url,
 * driver and isolation and fills their defaults.
 */
public final class TargetKinds {
    private static final List<String> ISOLATION_LEVELS = List.of(
            "TRANSACTION_READ_UNCOMMITTED",
            "TRANSACTION_READ_COMMITTED",
            "TRANSACTION_REPEATABLE_READ",
            "TRANSACTION_SERIALIZABLE");

    private static final List<TargetKind> KINDS = load();

    private TargetKinds() {}

    private static List<TargetKind> load() {
        List<TargetKind> kinds = new ArrayList<>();
        List<String> seen = new ArrayList<>();
        for (TargetKind kind : ServiceLoader.load(TargetKind.class, TargetKinds.class.getClassLoader())) {
            for (String name : kind.names()) {
                if (seen.contains(name)) {
                    throw new IllegalStateException("database type " + name + " is registered twice (again by "
                            + kind.getClass().getName() + ")");
                }
                seen.add(name);
            }
            kinds.add(kind);
        }
        return List.copyOf(kinds);
    }

    /** Every registered kind, in registration order. */
    public static List<TargetKind> all() {
        return KINDS;
    }

    /** Every accepted {@code <type>} value, aliases included. */
    public static List<String> names() {
        List<String> names = new ArrayList<>();
        for (TargetKind kind : KINDS) {
            names.addAll(kind.names());
        }
        return names;
    }

    /** The kind a {@code <type>} value names (any case). */
    public static Optional<TargetKind> find(String typeName) {
        if (typeName == null) {
            return Optional.empty();
        }
        String upper = typeName.toUpperCase(Locale.ROOT);
        for (TargetKind kind : KINDS) {
            if (kind.names().contains(upper)) {
                return Optional.of(kind);
            }
        }
        return Optional.empty();
    }

    /** The kind of a config that {@link #resolve} accepted; an unknown name is a programming error here. */
    public static TargetKind of(String typeName) {
        return find(typeName)
                .orElseThrow(() -> new IllegalArgumentException(
                        "unknown database type '" + typeName + "' (one of " + String.join(", ", names()) + ")"));
    }

    /** The first kind whose URL prefixes fit {@code url}. */
    public static Optional<TargetKind> forUrl(String url) {
        for (TargetKind kind : KINDS) {
            if (kind.accepts(url)) {
                return Optional.of(kind);
            }
        }
        return Optional.empty();
    }

    /**
     * Checks a parsed target section against its kind and fills the defaults: the type name in upper case,
     * the kind's default driver and isolation. Errors name the element ({@code type}, {@code url},
     * {@code driver}, {@code isolation}) and the value. Accepts its own result unchanged.
     */
    public static TargetConfig resolve(TargetConfig parsed) throws ConfigException {
        String text = parsed.type();
        if (text == null) {
            throw new ConfigException("type", "is required (one of " + String.join(", ", names()) + ")");
        }
        TargetKind kind = find(text)
                .orElseThrow(() -> new ConfigException(
                        "type",
                        "'" + text + "' is not a supported database type (one of " + String.join(", ", names()) + ")"));
        String type = text.toUpperCase(Locale.ROOT);
        String url = url(kind, type, parsed.url());
        String driver = driver(kind, type, parsed.driver());
        String isolation = isolation(kind, type, parsed.isolation());
        return new TargetConfig(
                type,
                driver,
                url,
                parsed.username(),
                parsed.password(),
                isolation,
                parsed.reconnectOnConnectionFailure(),
                parsed.options());
    }

    private static String url(TargetKind kind, String type, String url) throws ConfigException {
        if (url == null || url.isBlank()) {
            throw new ConfigException(
                    "url",
                    (url == null ? "is required" : "is empty") + " (for type " + type + ": " + kind.exampleUrl() + ")");
        }
        if (!kind.accepts(url)) {
            throw new ConfigException(
                    "url", "'" + url + "' does not fit type " + type + " (expected " + kind.exampleUrl() + ")");
        }
        kind.checkUrl(url);
        return url;
    }

    private static String driver(TargetKind kind, String type, String driver) throws ConfigException {
        Optional<String> defaultDriver = kind.defaultDriver();
        if (defaultDriver.isEmpty()) {
            if (driver != null) {
                throw new ConfigException(
                        "driver",
                        "'" + driver + "' is not used with type " + type + " (it has no JDBC driver); remove it");
            }
            return null;
        }
        if (driver != null && driver.isBlank()) {
            throw new ConfigException("driver", "is empty (leave it out to use the default for " + type + ")");
        }
        return driver != null ? driver : defaultDriver.get();
    }

    private static String isolation(TargetKind kind, String type, String text) throws ConfigException {
        Optional<String> defaultIsolation = kind.defaultIsolation();
        if (defaultIsolation.isEmpty()) {
            if (text != null) {
                throw new ConfigException("isolation", "'" + text + "' does not apply to type " + type + "; remove it");
            }
            return null;
        }
        if (text == null) {
            return defaultIsolation.get();
        }
        String upper = text.toUpperCase(Locale.ROOT);
        String canonical = upper.startsWith("TRANSACTION_") ? upper : "TRANSACTION_" + upper;
        if (!ISOLATION_LEVELS.contains(canonical)) {
            throw new ConfigException(
                    "isolation",
                    "'" + text + "' is not an isolation level (one of " + String.join(", ", ISOLATION_LEVELS) + ")");
        }
        return canonical;
    }
}
