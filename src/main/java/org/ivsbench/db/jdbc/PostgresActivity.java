package org.ivsbench.db.jdbc;

import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.ivsbench.db.ServerActivity;
import org.ivsbench.db.TargetException;

/**
 * PostgreSQL's activity snapshot, in the server's own terms: every client session of {@code pg_stat_activity}
 * (but this one) with its state, what it waits on ({@code wait_event_type}/{@code wait_event}, whatever the
 * kind), the sessions blocking it ({@code pg_blocking_pids}), its statement and the ages of its transaction,
 * statement and state (an {@code idle in transaction} session holds its locks and holds back vacuum); and the
 * heavyweight locks not granted plus those granted to a blocking session ({@code pg_locks}, relation names
 * resolved). Other users' statements need {@code pg_read_all_stats}; what the server refuses becomes a note.
 */
final class PostgresActivity implements ServerActivity {
    private static final String SESSIONS = "SELECT pid, usename, application_name, state, wait_event_type,"
            + " wait_event, pg_blocking_pids(pid), query,"
            + " EXTRACT(EPOCH FROM now() - xact_start), EXTRACT(EPOCH FROM now() - query_start),"
            + " EXTRACT(EPOCH FROM now() - state_change), backend_xmin IS NOT NULL"
            + " FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()"
            + " ORDER BY xact_start NULLS LAST LIMIT 200";
    /** Locks that wait, and every lock held by a session some other session waits for. */
    private static final String LOCKS = "SELECT l.pid, l.locktype, l.mode, l.granted, l.relation::regclass::text,"
            + " l.transactionid::text FROM pg_locks l"
            + " WHERE l.pid <> pg_backend_pid() AND (NOT l.granted OR l.pid IN"
            + " (SELECT unnest(pg_blocking_pids(a.pid)) FROM pg_stat_activity a))"
            + " ORDER BY l.granted, l.pid LIMIT 200";

    private final JdbcTarget target;

    PostgresActivity(JdbcTarget target) {
        this.target = target;
    }

    @Override
    public Map<String, Object> activity() throws TargetException {
        return ActivityParts.take(target, parts -> {
            parts.partOrNote(
                    "sessions",
                    () -> parts.rows(SESSIONS, PostgresActivity::session),
                    why -> "reading pg_stat_activity failed: " + why);
            parts.partOrNote(
                    "locks", () -> parts.rows(LOCKS, PostgresActivity::lock), why -> "reading pg_locks failed: " + why);
        });
    }

    private static Map<String, Object> session(ResultSet rs) throws SQLException {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("pid", rs.getLong(1));
        row.put("user", rs.getString(2));
        row.put("application", rs.getString(3));
        row.put("state", rs.getString(4));
        row.put("waitEventType", rs.getString(5));
        row.put("waitEvent", rs.getString(6));
        row.put("blockedBy", pids(rs.getArray(7)));
        row.put("query", ServerActivity.truncate(rs.getString(8)));
        row.put("xactSeconds", seconds(rs, 9));
        row.put("querySeconds", seconds(rs, 10));
        row.put("stateSeconds", seconds(rs, 11));
        row.put("holdsSnapshot", rs.getBoolean(12));
        return row;
    }

    private static Map<String, Object> lock(ResultSet rs) throws SQLException {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("pid", rs.getLong(1));
        row.put("lockType", rs.getString(2));
        row.put("mode", rs.getString(3));
        row.put("granted", rs.getBoolean(4));
        row.put("relation", rs.getString(5));
        row.put("transactionId", rs.getString(6));
        return row;
    }

    private static List<Long> pids(Array array) throws SQLException {
        List<Long> out = new ArrayList<>();
        if (array == null) {
            return out;
        }
        for (Object o : (Object[]) array.getArray()) {
            out.add(((Number) o).longValue());
        }
        return out;
    }

    /** Whole seconds (rounded down), or null when the age is unknown (no transaction open). */
    private static Long seconds(ResultSet rs, int column) throws SQLException {
        double v = rs.getDouble(column);
        return rs.wasNull() ? null : (long) Math.floor(v);
    }
}
