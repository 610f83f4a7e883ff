package org.ivsbench.db.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import org.ivsbench.db.QuietGauge;

/**
 * Quiet on PostgreSQL: the table ANALYZEd (a fresh copy has no planner statistics, a primary may have had them
 * from autovacuum), then a CHECKPOINT (dirty shared buffers written, so neither side's run pays for the other's
 * backlog; needs a superuser or the pg_checkpoint role), then no vacuum or analyze running on the table
 * (autovacuum's, in pg_stat_progress_vacuum/_analyze).
 */
final class PostgresQuiet implements SqlQuiescence.Gauges {
    private static final String INSUFFICIENT_PRIVILEGE = "42501";

    private final PostgresDialect dialect;

    PostgresQuiet(PostgresDialect dialect) {
        this.dialect = dialect;
    }

    @Override
    public void settle(Connection c, String table) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("ANALYZE " + dialect.quote(table));
            try {
                st.execute("CHECKPOINT");
            } catch (SQLException e) {
                if (INSUFFICIENT_PRIVILEGE.equals(e.getSQLState())) {
                    throw new SQLException(
                            "CHECKPOINT refused: the user needs the pg_checkpoint role (GRANT pg_checkpoint TO <user>)"
                                    + " or superuser; or set experiment/quiesce/timeout to 0",
                            e.getSQLState(),
                            e);
                }
                throw e;
            }
        }
    }

    @Override
    public List<QuietGauge> read(Connection c, String table) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT"
                + " (SELECT count(*) FROM pg_stat_progress_vacuum v JOIN pg_class r ON r.oid = v.relid"
                + " WHERE r.relname = ?)"
                + " + (SELECT count(*) FROM pg_stat_progress_analyze a JOIN pg_class r ON r.oid = a.relid"
                + " WHERE r.relname = ?)")) {
            ps.setString(1, table);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return List.of(QuietGauge.atMost("vacuum_or_analyze_running", rs.getLong(1), 0));
            }
        }
    }
}
