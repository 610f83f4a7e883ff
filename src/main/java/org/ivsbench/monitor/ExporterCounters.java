package org.ivsbench.monitor;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;

import org.ivsbench.monitor.ExpositionParser.Series;

/**
 * The database's counters read from mysqld_exporter or postgres_exporter instead of through the target, under
 * the names the built-in sampler gives them (MariaDB's SHOW GLOBAL STATUS names; PostgreSQL's
 * {@code view.column}), so {@link DbCounterSampler} makes the same {@code db.*} columns of them. The mapping is
 * docs/monitor-exporters.md's table. The kinds (counter or gauge) are the database kind's, as for the built-in
 * sampler.
 *
 * <p>mysqld_exporter lower-cases every status name; the kind's default names give the server's spelling back
 * ({@code com_select} is {@code Com_select}); any other name gets a capital first letter, as MariaDB writes
 * them ({@code rocksdb_block_cache_add} is {@code Rocksdb_block_cache_add}).
 *
 * <p>The exporter's own queries (SHOW GLOBAL STATUS, SHOW VARIABLES, information_schema, pg_stat_* reads) raise
 * the server's statement counters (Questions, Com_show_status, Bytes_sent, xact_commit, tup_returned ...) as
 * the built-in sampler's do, but by more and at the exporter's pace: exact statement counts need the built-in
 * sampler.
 */
final class ExporterCounters implements CounterSource {

    /** Which exporter, and so which name mapping. */
    enum Flavour {
        MYSQLD,
        POSTGRES
    }

    private static final String MYSQL = "mysql_global_status_";
    /** postgres_exporter's custom query for pg_stat_statements by statement kind (scripts/exporters.sh writes it). */
    static final String STATEMENTS = "ivsbench_statements_";
    /** Its custom query for the live and dead tuples of the database's tables, summed (scripts/exporters.sh). */
    static final String TABLES = "ivsbench_tables_";

    /** mysqld_exporter's labelled families: metric -> (label, status name prefix). */
    private static final Map<String, String[]> MYSQL_FAMILIES = Map.of(
            "commands_total", new String[] {"command", "com_"},
            "handlers_total", new String[] {"handler", "handler_"},
            "connection_errors_total", new String[] {"error", "connection_errors_"},
            "buffer_pool_pages", new String[] {"state", "innodb_buffer_pool_pages_"},
            "buffer_pool_page_changes_total", new String[] {"operation", "innodb_buffer_pool_pages_"},
            "innodb_row_ops_total", new String[] {"operation", "innodb_rows_"},
            "performance_schema_lost_total", new String[] {"instrumentation", "performance_schema_"});

    private final ExporterScraper scraper;
    private final Flavour flavour;
    private final String database; // PostgreSQL: the datname whose pg_stat_database row is read
    private final Predicate<String> isGauge;
    private final Map<String, String> spelling = new LinkedHashMap<>();

    /**
     * {@code knownNames}: the server's spelling of names (the kind's defaults); {@code isGauge}: the kind's
     * verdict per name; {@code database}: PostgreSQL's database name (ignored for mysqld).
     */
    ExporterCounters(
            ExporterScraper scraper,
            Flavour flavour,
            String database,
            Collection<String> knownNames,
            Predicate<String> isGauge) {
        if (flavour == Flavour.POSTGRES && (database == null || database.isBlank())) {
            throw new IllegalArgumentException("postgres_exporter counters need the database name");
        }
        this.scraper = scraper;
        this.flavour = flavour;
        this.database = database;
        this.isGauge = isGauge;
        for (String n : knownNames) {
            spelling.put(n.toLowerCase(Locale.ROOT), n);
        }
    }

    @Override
    public Map<String, Double> snapshot() throws Exception {
        return map(scraper.scrape());
    }

    @Override
    public boolean isGauge(String name) {
        return isGauge.test(name);
    }

    /** The counters in {@code all}, under the built-in sampler's names; NaN values (not set) are left out. */
    Map<String, Double> map(List<Series> all) {
        Map<String, Double> out = new LinkedHashMap<>();
        for (Series s : all) {
            if (Double.isNaN(s.value())) {
                continue;
            }
            String name = flavour == Flavour.MYSQLD ? mysqlName(s) : postgresName(s);
            if (name != null) {
                out.put(name, s.value());
            }
        }
        if (flavour == Flavour.MYSQLD) {
            pagesTotal(out);
        } else {
            statementsTotal(all, out);
        }
        return out;
    }

    /**
     * mysqld_exporter 0.14 drops Innodb_buffer_pool_pages_total; MariaDB defines misc as total - data - free, so
     * data + free + misc gives it back.
     */
    private void pagesTotal(Map<String, Double> out) {
        String total = spelled("innodb_buffer_pool_pages_total");
        Double data = out.get(spelled("innodb_buffer_pool_pages_data"));
        Double free = out.get(spelled("innodb_buffer_pool_pages_free"));
        Double misc = out.get(spelled("innodb_buffer_pool_pages_misc"));
        if (!out.containsKey(total) && data != null && free != null && misc != null) {
            out.put(total, data + free + misc);
        }
    }

    private String spelled(String lower) {
        String known = spelling.get(lower);
        return known != null ? known : Character.toUpperCase(lower.charAt(0)) + lower.substring(1);
    }

    private String mysqlName(Series s) {
        if (!s.name().startsWith(MYSQL)) {
            return null;
        }
        String rest = s.name().substring(MYSQL.length());
        String[] family = MYSQL_FAMILIES.get(rest);
        String lower;
        if (family != null) {
            String value = s.label(family[0]);
            if (value == null) {
                return null;
            }
            lower = family[1] + value.toLowerCase(Locale.ROOT);
        } else if (rest.equals("buffer_pool_dirty_pages")) {
            lower = "innodb_buffer_pool_pages_dirty";
        } else if (s.labels().isEmpty()) {
            lower = rest;
        } else {
            return null; // another labelled family: no single status variable
        }
        return spelled(lower);
    }

    /** pg_stat_statements.calls: every statement kind's calls, as the built-in sampler adds them. */
    private static void statementsTotal(List<Series> all, Map<String, Double> out) {
        double calls = 0;
        boolean any = false;
        for (Series s : all) {
            if (s.name().equals(STATEMENTS + "calls") && isKind(s.label("kind")) && !Double.isNaN(s.value())) {
                calls += s.value();
                any = true;
            }
        }
        if (any) {
            out.put("pg_stat_statements.calls", calls);
        }
    }

    /** A statement kind worth a column: a first keyword of letters (not a comment, not "<insufficient privilege>"). */
    private static boolean isKind(String kind) {
        return kind != null && !kind.isEmpty() && kind.chars().allMatch(Character::isLetter);
    }

    private String postgresName(Series s) {
        String n = s.name();
        if (n.startsWith(STATEMENTS)) {
            String kind = s.label("kind");
            return isKind(kind) ? "pg_stat_statements." + n.substring(STATEMENTS.length()) + "_" + kind : null;
        }
        if (n.startsWith("pg_stat_database_")) {
            if (!database.equals(s.label("datname")) || n.startsWith("pg_stat_database_conflicts_")) {
                return null; // another database's row, or the pg_stat_database_conflicts view
            }
            String column = n.substring("pg_stat_database_".length());
            return column.equals("stats_reset") ? null : "pg_stat_database." + column;
        }
        if (n.startsWith("pg_stat_bgwriter_")) {
            String column = n.substring("pg_stat_bgwriter_".length());
            column = column.endsWith("_total") ? column.substring(0, column.length() - "_total".length()) : column;
            return column.equals("stats_reset") ? null : "pg_stat_bgwriter." + column;
        }
        if (n.startsWith(TABLES)) {
            return "pg_stat_user_tables." + n.substring(TABLES.length());
        }
        if (n.equals("pg_database_size_bytes") && database.equals(s.label("datname"))) {
            return "pg_database_size";
        }
        return null;
    }

    @Override
    public String toString() {
        return flavour.name().toLowerCase(Locale.ROOT) + " exporter " + scraper;
    }
}
