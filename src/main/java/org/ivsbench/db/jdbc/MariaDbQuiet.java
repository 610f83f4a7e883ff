package org.ivsbench.db.jdbc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.ivsbench.db.QuietGauge;

/**
 * Quiet on MariaDB: InnoDB's dirty pages flushed (at most {@link #DIRTY_FRACTION} of the buffer pool, or no
 * longer falling: the page cleaner of 10.11 stops flushing an idle server's last few percent) and purge caught up
 * (history list length near 0, or steady); with the RocksDB engine loaded, no memtable waiting for a flush and no
 * compaction pending (information_schema.ROCKSDB_CFSTATS, summed over column families). Reads a few status
 * rows per poll; no table is scanned, no buffer pool page touched.
 */
final class MariaDbQuiet implements SqlQuiescence.Gauges {
    static final double DIRTY_FRACTION = 0.01;
    static final double HISTORY_NEAR_ZERO = 100;
    private static final List<String> ROCKSDB_STATS =
            List.of("NUM_IMMUTABLE_MEM_TABLE", "MEM_TABLE_FLUSH_PENDING", "COMPACTION_PENDING");

    private Boolean rocksdb;

    @Override
    public List<QuietGauge> read(Connection c, String table) throws SQLException {
        Map<String, Double> status = new HashMap<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SHOW GLOBAL STATUS WHERE Variable_name IN"
                        + " ('Innodb_buffer_pool_pages_dirty', 'Innodb_buffer_pool_pages_total',"
                        + " 'Innodb_history_list_length')")) {
            while (rs.next()) {
                status.put(rs.getString(1), Double.parseDouble(rs.getString(2)));
            }
        }
        List<QuietGauge> gauges = new ArrayList<>();
        Double dirty = status.get("Innodb_buffer_pool_pages_dirty");
        if (dirty != null) {
            double total = status.getOrDefault("Innodb_buffer_pool_pages_total", 0.0);
            gauges.add(QuietGauge.atMostOrSteady(
                    "Innodb_buffer_pool_pages_dirty", dirty, Math.floor(total * DIRTY_FRACTION)));
        }
        Double history = status.get("Innodb_history_list_length");
        if (history != null) {
            gauges.add(QuietGauge.atMostOrSteady("Innodb_history_list_length", history, HISTORY_NEAR_ZERO));
        }
        if (rocksdb(c)) {
            Map<String, Double> sums = new HashMap<>();
            try (Statement st = c.createStatement();
                    ResultSet rs =
                            st.executeQuery("SELECT STAT_TYPE, SUM(VALUE) FROM information_schema.ROCKSDB_CFSTATS"
                                    + " WHERE STAT_TYPE IN ('" + String.join("', '", ROCKSDB_STATS)
                                    + "') GROUP BY STAT_TYPE")) {
                while (rs.next()) {
                    sums.put(rs.getString(1), rs.getDouble(2));
                }
            }
            for (String stat : ROCKSDB_STATS) {
                gauges.add(QuietGauge.atMost("rocksdb." + stat, sums.getOrDefault(stat, 0.0), 0));
            }
        }
        return gauges;
    }

    /** Whether the server has the RocksDB engine (asked once per probe). */
    private boolean rocksdb(Connection c) throws SQLException {
        if (rocksdb == null) {
            try (Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery(
                            "SELECT SUPPORT FROM information_schema.ENGINES WHERE ENGINE = 'ROCKSDB'")) {
                String support = rs.next() ? rs.getString(1) : "";
                rocksdb = support.equalsIgnoreCase("YES") || support.equalsIgnoreCase("DEFAULT");
            }
        }
        return rocksdb;
    }
}
