package org.ivsbench.monitor;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Test-only: SHOW GLOBAL STATUS over plain JDBC, so the monitor's MariaDB test depends on the monitor alone and
 * not on the JDBC target (whose own counter reads are tested in MariaDbTargetIntegrationTest). Gauges are the
 * few names the integration test looks at; everything else is a counter.
 */
final class JdbcCounterSource implements CounterSource, AutoCloseable {
    private static final Set<String> GAUGES = Set.of("Threads_connected", "Threads_running", "Open_tables",
            "Innodb_buffer_pool_pages_free", "Innodb_buffer_pool_pages_data", "Innodb_buffer_pool_pages_dirty",
            "Innodb_buffer_pool_pages_total", "Innodb_buffer_pool_bytes_data", "Innodb_buffer_pool_bytes_dirty",
            "Memory_used", "Max_used_connections", "Innodb_history_list_length", "Innodb_checkpoint_age");

    private final Connection connection;

    JdbcCounterSource(String url, String user, String password) throws SQLException {
        this.connection = DriverManager.getConnection(url, user, password);
    }

    @Override
    public synchronized Map<String, Double> snapshot() throws SQLException {
        Map<String, Double> m = new HashMap<>();
        try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery("SHOW GLOBAL STATUS")) {
            while (rs.next()) {
                try {
                    m.put(rs.getString(1), Double.parseDouble(rs.getString(2)));
                } catch (NumberFormatException | NullPointerException e) {
                    // text values (ON/OFF, versions) are not counters
                }
            }
        }
        return m;
    }

    @Override
    public boolean isGauge(String name) {
        return GAUGES.contains(name);
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
