package org.ivsbench.db.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;

import org.ivsbench.db.Quiescence;
import org.ivsbench.db.QuietGauge;
import org.ivsbench.db.TargetException;

/**
 * {@link Quiescence} for the SQL products: the dialect's one-time actions on a connection of the probe's own,
 * then its gauges read over the same connection until the probe is closed.
 */
final class SqlQuiescence implements Quiescence {
    /** What differs between the products. */
    interface Gauges {
        /** One-time actions before the readings (a checkpoint, ANALYZE); nothing by default. */
        default void settle(Connection connection, String table) throws SQLException {}

        /** One reading. */
        List<QuietGauge> read(Connection connection, String table) throws SQLException;

        /** The state the run phase starts from ({@link Quiescence.Probe#state}); none by default. */
        default Map<String, Double> state(Connection connection, String table) throws SQLException {
            return Map.of();
        }

        /** Undoes what {@link #settle} changed on the server (a setting it lowered); nothing by default. */
        default void release(Connection connection) throws SQLException {}
    }

    private final JdbcTarget target;
    private final Gauges gauges;

    SqlQuiescence(JdbcTarget target, Gauges gauges) {
        this.target = target;
        this.gauges = gauges;
    }

    @Override
    public Probe settle(String table) throws TargetException {
        Identifiers.require("table", table);
        Connection c = target.connect();
        try {
            gauges.settle(c, table);
        } catch (SQLException e) {
            try {
                gauges.release(c); // what settling changed before it failed
            } catch (SQLException ignored) {
                // the settle failure is the one to report
            }
            Connections.closeQuietly(c);
            throw target.failure("settle the server before a run phase", e);
        }
        return new Probe() {
            @Override
            public List<QuietGauge> read() throws TargetException {
                try {
                    return gauges.read(c, table);
                } catch (SQLException e) {
                    throw target.failure("read the server's background work", e);
                }
            }

            @Override
            public Map<String, Double> state() throws TargetException {
                try {
                    return gauges.state(c, table);
                } catch (SQLException e) {
                    throw target.failure("read the storage engine's state", e);
                }
            }

            @Override
            public void close() throws TargetException {
                try {
                    gauges.release(c);
                } catch (SQLException e) {
                    throw target.failure("restore the server's settings after the quiescence wait", e);
                } finally {
                    Connections.closeQuietly(c);
                }
            }
        };
    }
}
