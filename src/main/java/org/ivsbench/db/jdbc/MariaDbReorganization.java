package org.ivsbench.db.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import org.ivsbench.db.Reorganization;
import org.ivsbench.db.TargetException;

/**
 * MariaDB's reorganization of a table by its engine: InnoDB {@code OPTIMIZE TABLE} (a rebuild of the table and its
 * indexes), RocksDB a manual compaction of the column family that holds it ({@code SET GLOBAL rocksdb_compact_cf},
 * the whole default column family: every SST level merged down, deleted and overwritten versions dropped). Before
 * and after: the table's {@code information_schema.TABLES} sizes and, for RocksDB, the memtable and SST levels as
 * engine_state.csv reads them ({@link MariaDbQuiet#state}).
 */
final class MariaDbReorganization implements Reorganization {
    private final JdbcTarget target;

    MariaDbReorganization(JdbcTarget target) {
        this.target = target;
    }

    @Override
    public Result reorganize(String table) throws TargetException {
        Identifiers.require("table", table);
        try (Connection c = target.connect()) {
            String engine = engine(c, table);
            String statement = engine.equals("rocksdb")
                    ? "SET GLOBAL rocksdb_compact_cf = 'default'"
                    : "OPTIMIZE TABLE `" + table + "`";
            Map<String, Double> before = figures(c, table);
            long t0 = System.nanoTime();
            try (Statement st = c.createStatement()) {
                // OPTIMIZE TABLE answers with result rows (and a note that InnoDB recreates); drain them.
                if (st.execute(statement)) {
                    try (ResultSet rs = st.getResultSet()) {
                        while (rs.next()) {
                            if ("error".equalsIgnoreCase(rs.getString("Msg_type"))) {
                                throw new SQLException(statement + ": " + rs.getString("Msg_text"));
                            }
                        }
                    }
                }
            }
            long millis = (System.nanoTime() - t0) / 1_000_000;
            return new Result(statement, millis, before, figures(c, table));
        } catch (SQLException e) {
            throw new TargetException("reorganizing " + table + ": " + e.getMessage(), e, false);
        }
    }

    private static String engine(Connection c, String table) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT ENGINE FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?")) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new SQLException("no table " + table + " in the current database");
                }
                return rs.getString(1).toLowerCase(Locale.ROOT);
            }
        }
    }

    private static Map<String, Double> figures(Connection c, String table) throws SQLException {
        Map<String, Double> m = new LinkedHashMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT DATA_LENGTH, INDEX_LENGTH, DATA_FREE FROM"
                + " information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?")) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    m.put("table.data_length", rs.getDouble(1));
                    m.put("table.index_length", rs.getDouble(2));
                    m.put("table.data_free", rs.getDouble(3));
                }
            }
        }
        m.putAll(new MariaDbQuiet().state(c, table));
        return m;
    }
}
