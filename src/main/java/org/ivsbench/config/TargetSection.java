package org.ivsbench.config;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/** The connection part of the root element: type, driver, url, credentials, isolation, targetOptions. */
final class TargetSection {
    static final List<String> ELEMENTS = List.of("type", "driver", "url", "username", "password", "passwordEnv",
            "passwordFile", "isolation", "reconnectOnConnectionFailure", "targetOptions");

    private static final List<String> PASSWORD_SOURCES = List.of("password", "passwordEnv", "passwordFile");
    private static final List<String> ISOLATION_LEVELS = List.of("TRANSACTION_READ_UNCOMMITTED",
            "TRANSACTION_READ_COMMITTED", "TRANSACTION_REPEATABLE_READ", "TRANSACTION_SERIALIZABLE");

    private TargetSection() {
    }

    static TargetConfig parse(Element root, Path configDir, Function<String, String> environment)
            throws ConfigException {
        DatabaseType type = type(root);
        String url = url(root, type);
        String driver = driver(root, type);
        String username = root.leaf("username");
        String password = password(root, configDir, environment);
        String isolation = isolation(root, type);
        boolean reconnect = root.bool("reconnectOnConnectionFailure", false);
        Map<String, String> options = options(root);
        return new TargetConfig(type, driver, url, username, password, isolation, reconnect, options);
    }

    private static DatabaseType type(Element root) throws ConfigException {
        String text = root.leaf("type");
        if (text == null) {
            throw new ConfigException("type", "is required (one of " + names() + ")");
        }
        try {
            return DatabaseType.valueOf(text.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new ConfigException("type", "'" + text + "' is not a supported database type (one of " + names() + ")");
        }
    }

    private static String names() {
        List<String> names = new ArrayList<>();
        for (DatabaseType t : DatabaseType.values()) {
            names.add(t.name());
        }
        return String.join(", ", names);
    }

    private static String url(Element root, DatabaseType type) throws ConfigException {
        String url = root.leaf("url");
        if (url == null || url.isBlank()) {
            throw new ConfigException("url", (url == null ? "is required" : "is empty") + " (for type " + type
                    + ": " + expectedUrl(type) + ")");
        }
        boolean fits = switch (type) {
            case SQLITE -> url.startsWith("jdbc:sqlite:");
            // Connector/J for MariaDB also serves MySQL; both schemes reach either server.
            case MARIADB, MYSQL -> url.startsWith("jdbc:mariadb://") || url.startsWith("jdbc:mysql://");
            case MONGODB -> url.startsWith("mongodb://") || url.startsWith("mongodb+srv://");
        };
        if (!fits) {
            throw new ConfigException("url", "'" + url + "' does not fit type " + type + " (expected "
                    + expectedUrl(type) + ")");
        }
        if (type == DatabaseType.MARIADB || type == DatabaseType.MYSQL) {
            String database = jdbcDatabase(url);
            if (!database.isEmpty() && !DATABASE_NAME.matcher(database).matches()) {
                throw new ConfigException("url", "database name '" + database + "' is not valid: use letters,"
                        + " digits, '_', '$' and '-', at most 64 characters");
            }
        }
        return url;
    }

    /**
     * The database part of a MariaDB URL is used as an identifier (it is quoted into SQL when sibling
     * databases are derived from it, and the server reads it as a name): checked like table names, with the
     * characters MariaDB database names commonly use.
     */
    private static final java.util.regex.Pattern DATABASE_NAME = java.util.regex.Pattern.compile("[A-Za-z0-9_$-]{1,64}");

    /** jdbc:mariadb://host:port/database?options -> database ("" when the URL names none). */
    private static String jdbcDatabase(String url) {
        int hosts = url.indexOf("//");
        int query = url.indexOf('?', hosts + 2);
        String beforeQuery = query < 0 ? url : url.substring(0, query);
        int slash = beforeQuery.indexOf('/', hosts + 2);
        return slash < 0 ? "" : beforeQuery.substring(slash + 1);
    }

    private static String expectedUrl(DatabaseType type) {
        return switch (type) {
            case SQLITE -> "jdbc:sqlite:<file>";
            case MARIADB, MYSQL -> "jdbc:mariadb://<host>:<port>/<database> or jdbc:mysql://...";
            case MONGODB -> "mongodb://<host>:<port>/<database>";
        };
    }

    private static String driver(Element root, DatabaseType type) throws ConfigException {
        String driver = root.leaf("driver");
        if (type == DatabaseType.MONGODB) {
            if (driver != null) {
                throw new ConfigException("driver", "'" + driver + "' is not used with type MONGODB (it has no JDBC driver); remove it");
            }
            return null;
        }
        if (driver != null && driver.isBlank()) {
            throw new ConfigException("driver", "is empty (leave it out to use the default for " + type + ")");
        }
        if (driver != null) {
            return driver;
        }
        return type == DatabaseType.SQLITE ? "org.sqlite.JDBC" : "org.mariadb.jdbc.Driver";
    }

    /**
     * At most one of the three sources: two would leave the user guessing which one was used. The env and file
     * forms keep the secret out of the config, its copy in the results and the process list.
     */
    private static String password(Element root, Path configDir, Function<String, String> environment)
            throws ConfigException {
        List<String> given = new ArrayList<>();
        for (String source : PASSWORD_SOURCES) {
            if (root.single(source) != null) {
                given.add(source);
            }
        }
        if (given.size() > 1) {
            throw new ConfigException(given.get(1), "give only one of password, passwordEnv and passwordFile (found: "
                    + String.join(", ", given) + ")");
        }
        String plain = root.leaf("password");
        if (plain != null) {
            return plain;
        }
        String variable = root.leaf("passwordEnv");
        if (variable != null) {
            if (variable.isBlank()) {
                throw new ConfigException("passwordEnv", "is empty (name an environment variable)");
            }
            String value = environment.apply(variable);
            if (value == null) {
                throw new ConfigException("passwordEnv", "environment variable '" + variable + "' is not set");
            }
            return value;
        }
        String file = root.leaf("passwordFile");
        if (file != null) {
            return SecretFile.firstLine("passwordFile", file, configDir, "password");
        }
        return null;
    }

    private static String isolation(Element root, DatabaseType type) throws ConfigException {
        String text = root.leaf("isolation");
        if (type == DatabaseType.MONGODB) {
            if (text != null) {
                throw new ConfigException("isolation", "'" + text + "' does not apply to type MONGODB; remove it");
            }
            return null;
        }
        if (text == null) {
            // SQLite only ever runs serializable; InnoDB's and MyRocks' own default is repeatable read (MyRocks has
            // no SERIALIZABLE at all), so the default measures the engine as shipped.
            return type == DatabaseType.SQLITE ? "TRANSACTION_SERIALIZABLE" : "TRANSACTION_REPEATABLE_READ";
        }
        String upper = text.toUpperCase(Locale.ROOT);
        String canonical = upper.startsWith("TRANSACTION_") ? upper : "TRANSACTION_" + upper;
        if (!ISOLATION_LEVELS.contains(canonical)) {
            throw new ConfigException("isolation", "'" + text + "' is not an isolation level (one of "
                    + String.join(", ", ISOLATION_LEVELS) + ")");
        }
        return canonical;
    }

    private static Map<String, String> options(Element root) throws ConfigException {
        Element section = root.single("targetOptions");
        Map<String, String> options = new LinkedHashMap<>();
        if (section == null) {
            return options;
        }
        section.requireContainer();
        for (Element option : section.children()) {
            if (options.containsKey(option.name())) {
                throw new ConfigException(option.path(), "given more than once; give it once");
            }
            options.put(option.name(), option.text());
        }
        return options;
    }
}
