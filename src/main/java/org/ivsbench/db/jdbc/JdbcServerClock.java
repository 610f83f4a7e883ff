package org.ivsbench.db.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

import org.ivsbench.db.ServerClock;
import org.ivsbench.db.TargetException;

/** The server's clock through the dialect's query ({@link Dialect#serverClockSql()}), microsecond timestamps. */
final class JdbcServerClock implements ServerClock {
    private final JdbcTarget target;
    private final String sql;

    JdbcServerClock(JdbcTarget target, String sql) {
        this.target = target;
        this.sql = sql;
    }

    @Override
    public String source() {
        return sql;
    }

    @Override
    public long resolutionMicros() {
        return 1;
    }

    @Override
    public Reader open() throws TargetException {
        Connection c = target.connect();
        PreparedStatement ps;
        try {
            ps = c.prepareStatement(sql);
        } catch (SQLException e) {
            closeQuietly(c);
            throw new TargetException("read the server's clock: " + e.getMessage(), e, false);
        }
        return new Reader() {
            @Override
            public long nowMicros() throws TargetException {
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        throw new TargetException("read the server's clock: " + sql + " returned no row");
                    }
                    return rs.getLong(1);
                } catch (SQLException e) {
                    throw new TargetException("read the server's clock: " + e.getMessage(), e, false);
                }
            }

            @Override
            public void close() {
                closeQuietly(c);
            }
        };
    }

    private static void closeQuietly(Connection c) {
        try {
            c.close();
        } catch (SQLException e) {
            // Nothing left to read over it.
        }
    }
}
