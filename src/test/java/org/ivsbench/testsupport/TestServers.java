package org.ivsbench.testsupport;

import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Assumptions;

import org.ivsbench.config.TargetConfig;

/**
 * Where the real servers started by scripts/test.sh live. Integration tests get their connection from here;
 * when a server is not configured the test fails with instructions instead of passing vacuously, unless
 * IVS_ALLOW_SKIP=1 is set (then it is reported as skipped). The Python tests follow the same rule with the
 * same variable (results-analyzer/tests/conftest.py); scripts/test.sh never sets it.
 */
public final class TestServers {
    private TestServers() {}

    public static String mariadbUrl() {
        return require(
                "ivs.mariadb.url", "IVS_MARIADB_URL", "scripts/mariadb.sh start && eval \"$(scripts/mariadb.sh env)\"");
    }

    public static String mongoUrl() {
        return require(
                "ivs.mongo.url",
                "IVS_MONGO_URL",
                "scripts/mongo-standin.sh start && eval \"$(scripts/mongo-standin.sh env)\"");
    }

    /** The private MariaDB's pid file (scripts/mariadb.sh env exports it), to check which process is the server. */
    public static String mariadbPidFile() {
        return require("ivs.mariadb.pidfile", "IVS_MARIADB_PIDFILE", "eval \"$(scripts/mariadb.sh env)\"");
    }

    public static String mariadbUser() {
        return env("IVS_MARIADB_USER", "ivs");
    }

    public static String mariadbPassword() {
        return env("IVS_MARIADB_PASSWORD", "ivs");
    }

    /**
     * A MariaDB target config for the private server, reconnecting off unless a test turns it on; at REPEATABLE
     * READ, the isolation a config gets by default, so the tests see the locking real runs see.
     */
    public static TargetConfig mariadb() {
        return new TargetConfig(
                "MARIADB",
                "org.mariadb.jdbc.Driver",
                mariadbUrl(),
                mariadbUser(),
                mariadbPassword(),
                "TRANSACTION_REPEATABLE_READ",
                false,
                Map.of());
    }

    public static String postgresUrl() {
        return require(
                "ivs.postgres.url",
                "IVS_POSTGRES_URL",
                "scripts/postgres.sh start && eval \"$(scripts/postgres.sh env)\"");
    }

    /** The private PostgreSQL's postmaster.pid (scripts/postgres.sh env exports it), for the crash test. */
    public static String postgresPidFile() {
        return require("ivs.postgres.pidfile", "IVS_POSTGRES_PIDFILE", "eval \"$(scripts/postgres.sh env)\"");
    }

    public static String postgresUser() {
        return env("IVS_POSTGRES_USER", "ivs");
    }

    public static String postgresPassword() {
        return env("IVS_POSTGRES_PASSWORD", "ivs");
    }

    /** A PostgreSQL target config for the private server at READ COMMITTED, the isolation a config gets by default. */
    public static TargetConfig postgres() {
        return new TargetConfig(
                "POSTGRESQL",
                "org.postgresql.Driver",
                postgresUrl(),
                postgresUser(),
                postgresPassword(),
                "TRANSACTION_READ_COMMITTED",
                false,
                Map.of());
    }

    /** The private Prometheus's HTTP API base (scripts/prometheus.sh env exports it), e.g. http://127.0.0.1:29090. */
    public static String prometheusUrl() {
        return require(
                "ivs.prometheus.url",
                "IVS_PROMETHEUS_URL",
                "scripts/prometheus.sh start && eval \"$(scripts/prometheus.sh env)\"");
    }

    /** HOST:PORT the private Prometheus scrapes every second: what a run's --metrics-listen gives it. */
    public static String prometheusTarget() {
        return require(
                "ivs.prometheus.target",
                "IVS_PROMETHEUS_TARGET",
                "scripts/prometheus.sh start && eval \"$(scripts/prometheus.sh env)\"");
    }

    /**
     * The metrics URL of one of this checkout's private exporters ({@code node}, {@code process}, {@code mysqld},
     * {@code postgres}), as scripts/exporters.sh env exports it, e.g. http://127.0.0.1:29100/metrics.
     */
    public static String exporterUrl(String name) {
        return require(
                "ivs.exporter." + name,
                "IVS_" + name.toUpperCase(java.util.Locale.ROOT) + "_EXPORTER_URL",
                "scripts/exporters.sh start && eval \"$(scripts/exporters.sh env)\" (after the database's own script)");
    }

    /**
     * The private Prometheus's file_sd directory (scripts/prometheus.sh env exports it): a NAME.json written there
     * adds scrape targets while it runs.
     */
    public static String prometheusSdDir() {
        return require(
                "ivs.prometheus.sd-dir",
                "IVS_PROMETHEUS_SD_DIR",
                "scripts/prometheus.sh start && eval \"$(scripts/prometheus.sh env)\"");
    }

    public static TargetConfig mongo() {
        return new TargetConfig("MONGODB", null, mongoUrl(), null, null, null, false, Map.of());
    }

    public static TargetConfig sqlite(Path file) {
        return new TargetConfig(
                "SQLITE",
                "org.sqlite.JDBC",
                "jdbc:sqlite:" + file.toAbsolutePath(),
                null,
                null,
                "TRANSACTION_SERIALIZABLE",
                false,
                Map.of());
    }

    private static String require(String property, String envName, String howTo) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank()) {
            value = System.getenv(envName);
        }
        if (value == null || value.isBlank()) {
            missing(property + " / " + envName + " is not set: run the tests with scripts/test.sh, or " + howTo);
        }
        return value;
    }

    /**
     * A test cannot run because something real it needs is missing: it fails with {@code message}, or is
     * reported as skipped when IVS_ALLOW_SKIP=1 says skipping is wanted. Never returns.
     */
    public static void missing(String message) {
        if ("1".equals(System.getenv("IVS_ALLOW_SKIP"))) {
            Assumptions.abort(message + " (skipped: IVS_ALLOW_SKIP=1)");
        }
        throw new IllegalStateException(message + " (set IVS_ALLOW_SKIP=1 to skip instead)");
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
