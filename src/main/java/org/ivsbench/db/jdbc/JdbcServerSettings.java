package org.ivsbench.db.jdbc;

import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import java.util.TreeMap;

import org.ivsbench.db.ServerSettings;
import org.ivsbench.db.TargetException;

/** The server's settings through the dialect's query (name, value), read on the target's counter connection. */
final class JdbcServerSettings implements ServerSettings {
    private final JdbcTarget target;
    private final String sql;

    JdbcServerSettings(JdbcTarget target, String sql) {
        this.target = target;
        this.sql = sql;
    }

    @Override
    public Map<String, String> current() throws TargetException {
        return target.onCounterConnection("read server settings", c -> {
            Map<String, String> settings = new TreeMap<>();
            try (Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery(sql)) {
                while (rs.next()) {
                    settings.put(rs.getString(1), rs.getString(2));
                }
            }
            return settings;
        });
    }
}
