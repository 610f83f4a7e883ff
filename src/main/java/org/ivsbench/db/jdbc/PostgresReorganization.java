package org.ivsbench.db.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;

import org.ivsbench.db.Reorganization;
import org.ivsbench.db.TargetException;

/**
 * PostgreSQL's reorganization of a table: {@code VACUUM FULL} (the table and its indexes rewritten, dead tuples
 * and free space gone). Before and after: the table's sizes (heap, with TOAST and indexes) and its dead tuples.
 */
final class PostgresReorganization implements Reorganization {
    private final JdbcTarget target;

    PostgresReorganization(JdbcTarget target) {
        this.target = target;
    }

    @Override
    public Result reorganize(String table) throws TargetException {
        Identifiers.require("table", table);
        String statement = "VACUUM FULL " + table;
        try (Connection c = target.connect()) {
            c.setAutoCommit(true); // VACUUM cannot run inside a transaction block
            Map<String, Double> before = figures(c, table);
            long t0 = System.nanoTime();
            try (Statement st = c.createStatement()) {
                st.execute(statement);
            }
            long millis = (System.nanoTime() - t0) / 1_000_000;
            return new Result(statement, millis, before, figures(c, table));
        } catch (SQLException e) {
            throw new TargetException("reorganizing " + table + ": " + e.getMessage(), e, false);
        }
    }

    private static Map<String, Double> figures(Connection c, String table) throws SQLException {
        Map<String, Double> m = new LinkedHashMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT pg_relation_size(c.oid), pg_total_relation_size(c.oid),"
                + " COALESCE(s.n_dead_tup, 0) FROM pg_class c LEFT JOIN pg_stat_user_tables s ON s.relid = c.oid"
                + " WHERE c.oid = to_regclass(?)")) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    m.put("table.heap_bytes", rs.getDouble(1));
                    m.put("table.total_bytes", rs.getDouble(2));
                    m.put("table.dead_tuples", rs.getDouble(3));
                }
            }
        }
        return m;
    }
}
