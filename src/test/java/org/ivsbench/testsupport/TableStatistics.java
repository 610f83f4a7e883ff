package org.ivsbench.testsupport;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;

/**
 * MariaDB's per-table statistics (the userstat plugin's information_schema.TABLE_STATISTICS): rows read and
 * changed per table by statements. Unlike the global status counters they count nothing of the server's own
 * background work or of other tables, so a test that proves "these operations went to that table on that
 * server" compares their delta with an exact count.
 */
public final class TableStatistics {
    private TableStatistics() {}

    private static Connection connect(String url) throws Exception {
        return DriverManager.getConnection(url, TestServers.mariadbUser(), TestServers.mariadbPassword());
    }

    /** Turns the statistics on or off on that server and returns the previous setting (off as MariaDB ships). */
    public static boolean userstat(String url, boolean on) throws Exception {
        try (Connection c = connect(url);
                Statement s = c.createStatement()) {
            boolean was;
            try (ResultSet rs = s.executeQuery("SELECT @@GLOBAL.userstat")) {
                rs.next();
                was = rs.getBoolean(1);
            }
            s.execute("SET GLOBAL userstat = " + (on ? 1 : 0));
            return was;
        }
    }

    /** Rows read from {@code schema.table} since the statistics were turned on (0 when none yet). */
    public static long rowsRead(String url, String schema, String table) throws Exception {
        try (Connection c = connect(url);
                PreparedStatement ps = c.prepareStatement("SELECT ROWS_READ FROM information_schema.TABLE_STATISTICS"
                        + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?")) {
            ps.setString(1, schema);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        }
    }

    /** The database a JDBC URL names. */
    public static String schema(String url) throws Exception {
        try (Connection c = connect(url)) {
            return c.getCatalog();
        }
    }
}
