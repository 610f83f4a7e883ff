package org.ivsbench.db.jdbc;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.ivsbench.db.QuietGauge;

/**
 * Quiet on MariaDB: InnoDB's dirty pages flushed (at most {@link #DIRTY_FRACTION} of the buffer pool, or no
 * longer falling) and purge caught up
 * (history list length near 0, or steady); with the RocksDB engine loaded, no memtable waiting for a flush and no
 * compaction pending (information_schema.ROCKSDB_CFSTATS, summed over column families). Reads a few status
 * rows per poll; no table is scanned, no buffer pool page touched.
 *
 * <p>Settling makes InnoDB flush now: for the wait {@code innodb_max_dirty_pages_pct} is 0 and
 * {@code innodb_io_capacity} is raised to {@code innodb_io_capacity_max}, both back to the server's values when
 * the probe closes. At the default 90 the page cleaner of 10.11 drains an idle server slowly and then stops with
 * a few percent still dirty (seen: 5,151 pages down to 653 in 55 s, left there); at 0 it writes them all, at about
 * a third of {@code innodb_io_capacity} pages a second (200: 67 pages/s, a restored table's 3,000-5,000 dirty pages
 * in 30-60 s; 2,000: 667 pages/s). Without it a mode's run phase began with whatever the preceding phase had left
 * dirty (a fresh instance after its restore: 1,700-2,400 pages, main after its extends: about 200). Nothing is
 * measured during the wait, so its flushing rate changes no measured phase. Needs the SUPER privilege.
 */
final class MariaDbQuiet implements SqlQuiescence.Gauges {
    static final double DIRTY_FRACTION = 0.01;
    static final double HISTORY_NEAR_ZERO = 100;
    private static final List<String> ROCKSDB_STATS =
            List.of("NUM_IMMUTABLE_MEM_TABLE", "MEM_TABLE_FLUSH_PENDING", "COMPACTION_PENDING");

    private static final int ACCESS_DENIED = 1227;

    private Boolean rocksdb;
    /** The server's own values of the settings settling changed, to put back on release; empty otherwise. */
    private final Map<String, BigDecimal> changed = new LinkedHashMap<>();

    @Override
    public void settle(Connection c, String table) throws SQLException {
        BigDecimal pct;
        BigDecimal capacity;
        BigDecimal capacityMax;
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT @@GLOBAL.innodb_max_dirty_pages_pct,"
                        + " @@GLOBAL.innodb_io_capacity, @@GLOBAL.innodb_io_capacity_max")) {
            if (!rs.next()) {
                return;
            }
            pct = rs.getBigDecimal(1);
            capacity = rs.getBigDecimal(2);
            capacityMax = rs.getBigDecimal(3);
        }
        try {
            set(c, "innodb_max_dirty_pages_pct", BigDecimal.ZERO, pct);
            if (capacityMax.compareTo(capacity) > 0) {
                set(c, "innodb_io_capacity", capacityMax, capacity);
            }
        } catch (SQLException e) {
            if (e.getErrorCode() == ACCESS_DENIED) {
                throw new SQLException(
                        "SET GLOBAL innodb_max_dirty_pages_pct refused (it makes InnoDB flush its dirty pages for"
                                + " the wait): the user needs the SUPER privilege; or set experiment/quiesce/timeout"
                                + " to 0",
                        e.getSQLState(),
                        e.getErrorCode(),
                        e);
            }
            throw e;
        }
    }

    /** Sets a global numeric setting, remembering the server's own value the first time. */
    private void set(Connection c, String name, BigDecimal value, BigDecimal own) throws SQLException {
        try (PreparedStatement st = c.prepareStatement("SET GLOBAL " + name + " = ?")) {
            st.setBigDecimal(1, value);
            st.execute();
        }
        changed.putIfAbsent(name, own);
    }

    @Override
    public void release(Connection c) throws SQLException {
        // in the reverse order: innodb_io_capacity may not exceed innodb_io_capacity_max at any moment
        List<String> names = new ArrayList<>(changed.keySet());
        Collections.reverse(names);
        for (String name : names) {
            try (PreparedStatement st = c.prepareStatement("SET GLOBAL " + name + " = ?")) {
                st.setBigDecimal(1, changed.get(name));
                st.execute();
            }
            changed.remove(name);
        }
    }

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

    /**
     * With the RocksDB engine loaded: the memtables' size and entries ({@code ROCKSDB_CFSTATS}, summed over column
     * families), SST files and bytes per level ({@code ROCKSDB_COMPACTION_STATS}, every column family but
     * {@code __system__}: the whole server, which in a fresh instance holds only the experiment's table), and the
     * table's own entries, deletes and files on disk ({@code ROCKSDB_INDEX_FILE_MAP} for the table's indexes in
     * {@code ROCKSDB_DDL}; an SST file's entries count every version it holds, so entries above the record count
     * are history a compaction has not yet removed). Nothing when the table is not a RocksDB table.
     */
    @Override
    public Map<String, Double> state(Connection c, String table) throws SQLException {
        Map<String, Double> state = new LinkedHashMap<>();
        if (!rocksdb(c) || !rocksdbTable(c, table)) {
            return state;
        }
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT STAT_TYPE, SUM(VALUE) FROM information_schema.ROCKSDB_CFSTATS"
                        + " WHERE STAT_TYPE IN ('CUR_SIZE_ALL_MEM_TABLES', 'NUM_ENTRIES_ACTIVE_MEM_TABLE',"
                        + " 'NUM_ENTRIES_IMM_MEM_TABLES') GROUP BY STAT_TYPE ORDER BY STAT_TYPE")) {
            double entries = 0;
            while (rs.next()) {
                if (rs.getString(1).equals("CUR_SIZE_ALL_MEM_TABLES")) {
                    state.put("rocksdb.memtable_bytes", rs.getDouble(2));
                } else {
                    entries += rs.getDouble(2);
                }
            }
            state.put("rocksdb.memtable_entries", entries);
        }
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT LEVEL, TYPE, SUM(VALUE) FROM"
                        + " information_schema.ROCKSDB_COMPACTION_STATS WHERE CF_NAME <> '__system__'"
                        + " AND LEVEL LIKE 'L%' AND TYPE IN ('NumFiles', 'SizeBytes') GROUP BY LEVEL, TYPE"
                        + " ORDER BY LEVEL, TYPE")) {
            while (rs.next()) {
                String what = rs.getString(2).equals("NumFiles") ? "files" : "bytes";
                state.put("rocksdb." + rs.getString(1) + "_" + what, rs.getDouble(3));
            }
        }
        try (PreparedStatement st = c.prepareStatement("SELECT COUNT(DISTINCT m.SST_NAME), SUM(m.NUM_ROWS),"
                + " SUM(m.ENTRY_DELETES) FROM information_schema.ROCKSDB_INDEX_FILE_MAP m"
                + " JOIN information_schema.ROCKSDB_DDL d"
                + " ON d.INDEX_NUMBER = m.INDEX_NUMBER AND d.COLUMN_FAMILY = m.COLUMN_FAMILY"
                + " WHERE d.TABLE_SCHEMA = DATABASE() AND d.TABLE_NAME = ?")) {
            st.setString(1, table);
            try (ResultSet rs = st.executeQuery()) {
                if (rs.next()) {
                    state.put("rocksdb.table_sst_files", rs.getDouble(1));
                    state.put("rocksdb.table_sst_entries", rs.getDouble(2));
                    state.put("rocksdb.table_sst_deletes", rs.getDouble(3));
                }
            }
        }
        return state;
    }

    /** Whether {@code table} of the connection's database is a RocksDB table. */
    private static boolean rocksdbTable(Connection c, String table) throws SQLException {
        try (PreparedStatement st = c.prepareStatement("SELECT ENGINE FROM information_schema.TABLES"
                + " WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?")) {
            st.setString(1, table);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next() && "ROCKSDB".equalsIgnoreCase(rs.getString(1));
            }
        }
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
