package org.ivsbench.db.jdbc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.ivsbench.db.CounterKind;

/**
 * PostgreSQL's cumulative statistics for the monitor, named {@code view.column}: the configured database's row
 * of pg_stat_database (with its size), pg_stat_bgwriter, the live and dead tuples of the database's tables
 * (pg_stat_user_tables summed: dead tuples that pile up are versions vacuum may not remove yet, e.g. for an old
 * snapshot), and, where the pg_stat_statements extension is
 * installed and preloaded, its calls, rows, time and blocks per statement kind (first keyword: select, update,
 * begin, ...). Every numeric column is read, so a newer server's extra columns appear without a change here.
 *
 * <p>pg_stat_database and pg_stat_bgwriter are flushed by each backend at the end of a transaction, at most once
 * a second, so they trail the workload by up to a second; pg_stat_statements is updated when each statement
 * ends, so its calls are exact at any moment. The statements of the counter connection itself (they all read
 * pg_stat_* views) are left out of the pg_stat_statements figures.
 */
final class PostgresCounters {
    static final String DATABASE = "pg_stat_database.";
    static final String BGWRITER = "pg_stat_bgwriter.";
    static final String STATEMENTS = "pg_stat_statements.";
    static final String DATABASE_SIZE = "pg_database_size";
    static final String TABLES = "pg_stat_user_tables.";

    /** Levels, not running totals. */
    private static final Set<String> GAUGES =
            Set.of(DATABASE + "numbackends", DATABASE_SIZE, TABLES + "n_live_tup", TABLES + "n_dead_tup");

    /** Columns that are identifiers or timestamps, not counters. */
    private static final Set<String> NOT_COUNTERS = Set.of("datid", "datname", "stats_reset");

    private static final List<String> DEFAULT_NAMES = List.of(
            DATABASE + "numbackends",
            DATABASE + "xact_commit",
            DATABASE + "xact_rollback",
            DATABASE + "blks_read",
            DATABASE + "blks_hit",
            DATABASE + "tup_returned",
            DATABASE + "tup_fetched",
            DATABASE + "tup_inserted",
            DATABASE + "tup_updated",
            DATABASE + "tup_deleted",
            DATABASE + "conflicts",
            DATABASE + "temp_files",
            DATABASE + "temp_bytes",
            DATABASE + "deadlocks",
            DATABASE + "blk_read_time",
            DATABASE + "blk_write_time",
            DATABASE_SIZE,
            TABLES + "n_live_tup",
            TABLES + "n_dead_tup",
            BGWRITER + "checkpoints_timed",
            BGWRITER + "checkpoints_req",
            BGWRITER + "checkpoint_write_time",
            BGWRITER + "checkpoint_sync_time",
            BGWRITER + "buffers_checkpoint",
            BGWRITER + "buffers_clean",
            BGWRITER + "maxwritten_clean",
            BGWRITER + "buffers_backend",
            BGWRITER + "buffers_backend_fsync",
            BGWRITER + "buffers_alloc");

    static final Map<String, CounterKind> DEFAULTS = defaults();

    /** The whole pg_stat_statements family is kept by default (a few columns per statement kind). */
    static final List<String> DEFAULT_PREFIXES = List.of(STATEMENTS);

    /** With whether pg_stat_statements is installed: one statement, and one that names pg_stat_ (see below). */
    private static final String DATABASE_SQL = "SELECT d.*, pg_database_size(d.datid) AS " + DATABASE_SIZE
            + ", EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_stat_statements') AS has_statements"
            + " FROM pg_stat_database d WHERE d.datname = current_database()";

    /** Levels summed over the database's tables (every user can read them: the counts are not hidden). */
    private static final String TABLES_SQL = "SELECT coalesce(sum(n_live_tup), 0) AS n_live_tup,"
            + " coalesce(sum(n_dead_tup), 0) AS n_dead_tup FROM pg_stat_user_tables";

    /** The extension is installed but its library was not preloaded: its view refuses to be read. */
    private static final String NOT_PRELOADED = "55000";

    /** Per statement kind; the monitor's own statements mention pg_stat_ and are left out. */
    private static final String STATEMENTS_SQL = "SELECT lower(split_part(btrim(s.query), ' ', 1)) AS kind,"
            + " sum(s.calls) AS calls, sum(s.rows) AS rows, sum(s.total_exec_time) AS exec_time_ms,"
            + " sum(s.shared_blks_hit) AS shared_blks_hit, sum(s.shared_blks_read) AS shared_blks_read"
            + " FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid"
            + " WHERE d.datname = current_database() AND s.query NOT LIKE '%pg\\_stat\\_%' GROUP BY 1";

    private PostgresCounters() {}

    static boolean isGauge(String counterName) {
        return GAUGES.contains(counterName);
    }

    static Map<String, Double> read(Connection connection) throws SQLException {
        Map<String, Double> counters = new TreeMap<>();
        try (Statement st = connection.createStatement()) {
            boolean statements = false;
            try (ResultSet rs = st.executeQuery(DATABASE_SQL)) {
                if (rs.next()) {
                    numericColumns(rs, DATABASE, counters);
                    statements = rs.getBoolean("has_statements");
                }
            }
            try (ResultSet rs = st.executeQuery("SELECT * FROM pg_stat_bgwriter")) {
                if (rs.next()) {
                    numericColumns(rs, BGWRITER, counters);
                }
            }
            try (ResultSet rs = st.executeQuery(TABLES_SQL)) {
                if (rs.next()) {
                    numericColumns(rs, TABLES, counters);
                }
            }
            if (statements) {
                statements(st, counters);
            }
        }
        return counters;
    }

    /**
     * Read without privileges (shared_preload_libraries and other users' statements are hidden from a plain
     * user): an extension created without its preloaded library is told apart by the view's own refusal.
     */
    private static void statements(Statement st, Map<String, Double> counters) throws SQLException {
        double calls = 0;
        try (ResultSet rs = st.executeQuery(STATEMENTS_SQL)) {
            while (rs.next()) {
                String kind = rs.getString("kind");
                if (kind == null || kind.isEmpty() || !kind.chars().allMatch(Character::isLetter)) {
                    continue; // a comment or a parenthesis first: no kind worth a column
                }
                calls += rs.getDouble("calls");
                counters.put(STATEMENTS + "calls_" + kind, rs.getDouble("calls"));
                counters.put(STATEMENTS + "rows_" + kind, rs.getDouble("rows"));
                counters.put(STATEMENTS + "exec_time_ms_" + kind, rs.getDouble("exec_time_ms"));
                counters.put(STATEMENTS + "shared_blks_hit_" + kind, rs.getDouble("shared_blks_hit"));
                counters.put(STATEMENTS + "shared_blks_read_" + kind, rs.getDouble("shared_blks_read"));
            }
        } catch (SQLException e) {
            if (NOT_PRELOADED.equals(e.getSQLState())) {
                return;
            }
            throw e;
        }
        counters.put(STATEMENTS + "calls", calls);
    }

    private static void numericColumns(ResultSet rs, String prefix, Map<String, Double> out) throws SQLException {
        ResultSetMetaData meta = rs.getMetaData();
        for (int i = 1; i <= meta.getColumnCount(); i++) {
            String column = meta.getColumnLabel(i);
            if (NOT_COUNTERS.contains(column)) {
                continue;
            }
            Object value = rs.getObject(i);
            if (value instanceof Number number) {
                out.put(column.equals(DATABASE_SIZE) ? DATABASE_SIZE : prefix + column, number.doubleValue());
            }
        }
    }

    private static Map<String, CounterKind> defaults() {
        Map<String, CounterKind> defaults = new LinkedHashMap<>();
        for (String name : DEFAULT_NAMES) {
            defaults.put(name, isGauge(name) ? CounterKind.GAUGE : CounterKind.COUNTER);
        }
        return Collections.unmodifiableMap(defaults);
    }
}
