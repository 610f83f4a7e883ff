package org.ivsbench.db.jdbc;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

import org.ivsbench.config.TargetConfig;
import org.ivsbench.db.TargetException;

/** Opens configured connections: driver properties, the config's options on top, isolation, dialect setup. */
final class Connections {
    private Connections() {}

    static Connection open(Dialect dialect, TargetConfig config, String url) throws TargetException {
        return open(dialect, config, url, Map.of());
    }

    /** {@code learned}: driver settings learnt from the server at the target's first connection. */
    static Connection open(Dialect dialect, TargetConfig config, String url, Map<String, String> learned)
            throws TargetException {
        dialect.beforeConnect(url);
        Properties props = dialect.connectionProperties(config);
        learned.forEach(props::setProperty);
        if (config.username() != null) {
            props.setProperty("user", config.username());
        }
        if (config.password() != null) {
            props.setProperty("password", config.password());
        }
        // The config's options are the user's word on driver settings, so they override our defaults.
        for (Map.Entry<String, String> option : config.options().entrySet()) {
            props.setProperty(option.getKey(), option.getValue());
        }
        Connection connection = null;
        try {
            connection = DriverManager.getConnection(url, props);
            dialect.initConnection(connection);
            Integer isolation = isolationLevel(config.isolation());
            if (isolation != null) {
                connection.setTransactionIsolation(isolation);
            }
            return connection;
        } catch (SQLException e) {
            closeQuietly(connection);
            SqlFailure failure = dialect.classify(e);
            // Never echo the URL's query string or the password: only the failure class and driver message.
            throw new TargetException(
                    "cannot connect to " + config.type() + " (" + failure.reason() + "): " + e.getMessage(),
                    e,
                    failure == SqlFailure.CONNECTION_LOST);
        }
    }

    /** TRANSACTION_READ_COMMITTED etc. (BenchBase's names) to the JDBC constant; null = driver default. */
    static Integer isolationLevel(String name) throws TargetException {
        if (name == null || name.isBlank()) {
            return null;
        }
        return switch (name.trim().toUpperCase(Locale.ROOT)) {
            case "TRANSACTION_READ_UNCOMMITTED" -> Connection.TRANSACTION_READ_UNCOMMITTED;
            case "TRANSACTION_READ_COMMITTED" -> Connection.TRANSACTION_READ_COMMITTED;
            case "TRANSACTION_REPEATABLE_READ" -> Connection.TRANSACTION_REPEATABLE_READ;
            case "TRANSACTION_SERIALIZABLE" -> Connection.TRANSACTION_SERIALIZABLE;
            default ->
                throw new TargetException("isolation '" + name + "' is not one of TRANSACTION_READ_UNCOMMITTED,"
                        + " TRANSACTION_READ_COMMITTED, TRANSACTION_REPEATABLE_READ, TRANSACTION_SERIALIZABLE");
        };
    }

    /** The driver as it names itself ("name version"), for the environment. */
    static String driver(Connection connection) throws SQLException {
        return connection.getMetaData().getDriverName() + " "
                + connection.getMetaData().getDriverVersion();
    }

    static void closeQuietly(AutoCloseable closeable) {
        if (closeable != null) {
            try {
                closeable.close();
            } catch (Exception ignored) {
                // Closing after a failure: the original failure is what the caller needs to see.
            }
        }
    }
}
