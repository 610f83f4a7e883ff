package org.ivsbench.db.jdbc;

import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.ivsbench.db.ServerActivity;
import org.ivsbench.db.TargetException;

/**
 * MariaDB's activity snapshot: every session of SHOW FULL PROCESSLIST (but this one) with its state, time and
 * statement, and InnoDB's lock waits, each waiting transaction joined with the transaction blocking it (trx id,
 * the thread id that is the blocker's CONNECTION_ID(), its statement and how long it has run or waited). Both
 * need the PROCESS privilege; a part the server refuses is replaced by a note. Besides: the metadata locks every
 * session holds ({@code information_schema.METADATA_LOCK_INFO}, from the {@code metadata_lock_info} plugin: who
 * holds the table lock that sessions in state "Waiting for table metadata lock" wait for; without the plugin a
 * note says how to load it), and every open InnoDB transaction with its age (an old one holds back purge).
 */
final class MariaDbActivity implements ServerActivity {
    private static final String LOCK_WAITS = "SELECT w.requesting_trx_id, r.trx_mysql_thread_id, r.trx_query,"
            + " TIMESTAMPDIFF(SECOND, r.trx_wait_started, NOW()), w.blocking_trx_id, b.trx_mysql_thread_id,"
            + " b.trx_query, b.trx_state, TIMESTAMPDIFF(SECOND, b.trx_started, NOW()), b.trx_rows_locked"
            + " FROM information_schema.INNODB_LOCK_WAITS w"
            + " JOIN information_schema.INNODB_TRX r ON r.trx_id = w.requesting_trx_id"
            + " JOIN information_schema.INNODB_TRX b ON b.trx_id = w.blocking_trx_id";
    private static final String METADATA_LOCKS = "SELECT THREAD_ID, LOCK_MODE, LOCK_DURATION, LOCK_TYPE,"
            + " TABLE_SCHEMA, TABLE_NAME FROM information_schema.METADATA_LOCK_INFO";
    private static final String TRANSACTIONS = "SELECT trx_id, trx_mysql_thread_id, trx_state,"
            + " TIMESTAMPDIFF(SECOND, trx_started, NOW()), trx_rows_locked, trx_query"
            + " FROM information_schema.INNODB_TRX ORDER BY trx_started LIMIT 50";
    /** Said in a snapshot when the plugin is not loaded (docs/diagnosis.md, "What a DBA enables"). */
    static final String NO_METADATA_LOCK_INFO = "metadata lock holders unknown: the metadata_lock_info plugin is"
            + " not loaded (plugin-load-add=metadata_lock_info.so, or INSTALL SONAME 'metadata_lock_info')";

    private final JdbcTarget target;

    MariaDbActivity(JdbcTarget target) {
        this.target = target;
    }

    @Override
    public Map<String, Object> activity() throws TargetException {
        return ActivityParts.take(target, parts -> {
            long self = selfId(parts.statement());
            parts.partOrNote(
                    "processlist", () -> processlist(parts, self), why -> "SHOW FULL PROCESSLIST failed: " + why);
            parts.partOrNote(
                    "lockWaits",
                    () -> parts.rows(LOCK_WAITS, MariaDbActivity::lockWait),
                    why -> "reading INNODB_LOCK_WAITS failed: " + why);
            parts.partOrNote(
                    "metadataLocks",
                    () -> parts.rows(METADATA_LOCKS, rs -> metadataLock(rs, self)),
                    why -> NO_METADATA_LOCK_INFO + " (" + why + ")");
            parts.partOrNote(
                    "transactions",
                    () -> parts.rows(TRANSACTIONS, MariaDbActivity::transaction),
                    why -> "reading INNODB_TRX failed: " + why);
        });
    }

    private static long selfId(Statement st) throws SQLException {
        try (ResultSet rs = st.executeQuery("SELECT CONNECTION_ID()")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Sessions other than this one; sleeping ones are kept (an idle session in a transaction can block). */
    private static List<Map<String, Object>> processlist(ActivityParts parts, long self) throws SQLException {
        return parts.rows("SHOW FULL PROCESSLIST", rs -> {
            long id = rs.getLong("Id");
            if (id == self) {
                return null;
            }
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("id", id);
            row.put("user", rs.getString("User"));
            row.put("db", rs.getString("db"));
            row.put("command", rs.getString("Command"));
            row.put("timeSeconds", rs.getLong("Time"));
            row.put("state", rs.getString("State"));
            row.put("info", ServerActivity.truncate(rs.getString("Info")));
            if (hasColumn(rs.getMetaData(), "Progress")) {
                row.put("progress", rs.getDouble("Progress"));
            }
            return row;
        });
    }

    private static Map<String, Object> lockWait(ResultSet rs) throws SQLException {
        Map<String, Object> waiting = new LinkedHashMap<>();
        waiting.put("trxId", rs.getString(1));
        waiting.put("threadId", rs.getLong(2));
        waiting.put("query", ServerActivity.truncate(rs.getString(3)));
        waiting.put("waitSeconds", rs.getLong(4));
        Map<String, Object> blocking = new LinkedHashMap<>();
        blocking.put("trxId", rs.getString(5));
        blocking.put("threadId", rs.getLong(6));
        blocking.put("query", ServerActivity.truncate(rs.getString(7)));
        blocking.put("state", rs.getString(8));
        blocking.put("runSeconds", rs.getLong(9));
        blocking.put("rowsLocked", rs.getLong(10));
        return Map.of("waiting", waiting, "blocking", blocking);
    }

    /** A metadata lock held by a session other than this one (the snapshot's own are of no interest). */
    private static Map<String, Object> metadataLock(ResultSet rs, long self) throws SQLException {
        long thread = rs.getLong(1);
        if (thread == self) {
            return null;
        }
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("threadId", thread);
        row.put("lockMode", rs.getString(2));
        row.put("lockDuration", rs.getString(3));
        row.put("lockType", rs.getString(4));
        row.put("schema", rs.getString(5));
        row.put("table", rs.getString(6));
        return row;
    }

    private static Map<String, Object> transaction(ResultSet rs) throws SQLException {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("trxId", rs.getString(1));
        row.put("threadId", rs.getLong(2));
        row.put("state", rs.getString(3));
        row.put("runSeconds", rs.getLong(4));
        row.put("rowsLocked", rs.getLong(5));
        row.put("query", ServerActivity.truncate(rs.getString(6)));
        return row;
    }

    private static boolean hasColumn(ResultSetMetaData md, String name) throws SQLException {
        for (int i = 1; i <= md.getColumnCount(); i++) {
            if (name.equalsIgnoreCase(md.getColumnLabel(i))) {
                return true;
            }
        }
        return false;
    }
}
