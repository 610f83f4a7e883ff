package org.ivsbench.monitor;

import java.time.Duration;
import java.util.Locale;

import org.ivsbench.config.ExportersConfig;
import org.ivsbench.db.TargetKind;

/**
 * Builds the monitor's samplers from {@code <monitor><exporters>}: {@link ExporterHostSampler} for os.* and
 * proc.*, {@link ExporterCounters} for db.*. A database exporter must fit the target (mysqld_exporter for
 * MariaDB/MySQL, postgres_exporter for PostgreSQL); without one the db.* columns are absent.
 */
final class ExporterSources {
    /** monitor.csv's source for rows read from exporters. */
    static final String SOURCE = "exporter";

    /** Each scrape must end well inside a monitor interval; the exporters answer in milliseconds. */
    private static final Duration TIMEOUT = Duration.ofSeconds(2);

    private ExporterSources() {}

    /**
     * The host sampler; {@code processGroup} is process-exporter's group of the database server (the monitor's
     * process name, else the kind's server process name).
     */
    static ExporterHostSampler host(ExportersConfig config, String processGroup) {
        return new ExporterHostSampler(
                scraper(config, config.node()), scraper(config, config.process()), processGroup, System::nanoTime);
    }

    /**
     * The counter source, or null without a database exporter. {@code kindCounters} gives the kinds (the
     * target's own source); {@code url} is the target's URL (PostgreSQL: its database is the datname read).
     */
    static CounterSource counters(ExportersConfig config, TargetKind kind, CounterSource kindCounters, String url) {
        String main = kind.names().isEmpty() ? "" : kind.names().get(0).toUpperCase(Locale.ROOT);
        if (config.mysqld() != null) {
            if (!kind.names().contains("MARIADB") && !kind.names().contains("MYSQL")) {
                throw new IllegalArgumentException(
                        "monitor/exporters/mysqld is for a MariaDB or MySQL target, not " + main);
            }
            return new ExporterCounters(
                    scraper(config, config.mysqld()),
                    ExporterCounters.Flavour.MYSQLD,
                    null,
                    kind.defaultCounters().keySet(),
                    kindCounters::isGauge);
        }
        if (config.postgres() != null) {
            if (!kind.names().contains("POSTGRES") && !kind.names().contains("POSTGRESQL")) {
                throw new IllegalArgumentException(
                        "monitor/exporters/postgres is for a PostgreSQL target, not " + main);
            }
            String database = databaseOf(url);
            if (database == null) {
                throw new IllegalArgumentException("monitor/exporters/postgres: the target URL names no database");
            }
            return new ExporterCounters(
                    scraper(config, config.postgres()),
                    ExporterCounters.Flavour.POSTGRES,
                    database,
                    kind.defaultCounters().keySet(),
                    kindCounters::isGauge);
        }
        return null;
    }

    /** The database of a JDBC URL: the path's first segment ({@code jdbc:postgresql://h:5432/db?x=y} gives db). */
    static String databaseOf(String url) {
        if (url == null) {
            return null;
        }
        int scheme = url.indexOf("://");
        if (scheme < 0) {
            return null;
        }
        String rest = url.substring(scheme + 3);
        int slash = rest.indexOf('/');
        int query = rest.indexOf('?');
        if (slash < 0 || (query >= 0 && query < slash)) {
            return null;
        }
        String path = rest.substring(slash + 1);
        int end = path.length();
        for (char c : new char[] {'?', '#', '/'}) {
            int i = path.indexOf(c);
            if (i >= 0) {
                end = Math.min(end, i);
            }
        }
        String db = path.substring(0, end);
        return db.isEmpty() ? null : java.net.URLDecoder.decode(db, java.nio.charset.StandardCharsets.UTF_8);
    }

    private static ExporterScraper scraper(ExportersConfig config, String url) {
        return url == null ? null : new ExporterScraper(url, config.user(), config.password(), TIMEOUT);
    }
}
