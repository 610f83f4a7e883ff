package org.ivsbench.db.jdbc;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import org.ivsbench.db.CounterKind;
import org.ivsbench.db.TargetKind;
import org.ivsbench.db.TargetKinds;
import org.ivsbench.db.Targets;
import org.ivsbench.testsupport.TestServers;

import static org.ivsbench.db.CounterKind.COUNTER;
import static org.ivsbench.db.CounterKind.GAUGE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The monitor's default MariaDB counters, as production offers them (the kind's default list), against the
 * private MariaDB 10.11 with MyRocks: every default has the kind written down here by hand from MariaDB's
 * description of each status variable (not from the production list), every default exists on the server,
 * the MyRocks counters a DBA reaches for are there with their kinds, and every one reported as a difference
 * (COUNTER) is a running total, never lower in a later read, across work on both engines that also lowers
 * levels (connections closed, memtables flushed, rows deleted).
 */
class MariaDbCountersIntegrationTest {

    /**
     * Levels: what the server has or does now (pages and bytes in the buffer pool, sessions, lock waits in
     * progress, the purge backlog, redo not yet checkpointed and its limit, memory in use).
     * Max_used_connections is a high-water mark: read as it is, not differenced.
     */
    private static final List<String> EXPECTED_GAUGES = List.of(
            "Innodb_buffer_pool_pages_free",
            "Innodb_buffer_pool_pages_data",
            "Innodb_buffer_pool_pages_dirty",
            "Innodb_buffer_pool_pages_total",
            "Innodb_buffer_pool_bytes_data",
            "Innodb_buffer_pool_bytes_dirty",
            "Innodb_row_lock_current_waits",
            "Innodb_history_list_length",
            "Innodb_checkpoint_age",
            "Innodb_checkpoint_max_age",
            "Open_tables",
            "Threads_connected",
            "Threads_running",
            "Max_used_connections",
            "Memory_used");

    /**
     * Running totals since the server started ("number of ...", "total ..."): reads, writes, flushes, waits,
     * statements, rows, bytes, temporary tables, table opens, connections. Innodb_buffer_pool_pages_flushed is
     * the number of pages flushed so far, although its prefix is shared with the levels above.
     */
    private static final List<String> EXPECTED_COUNTERS = List.of(
            "Innodb_buffer_pool_read_requests",
            "Innodb_buffer_pool_reads",
            "Innodb_buffer_pool_write_requests",
            "Innodb_buffer_pool_wait_free",
            "Innodb_buffer_pool_pages_flushed",
            "Innodb_pages_read",
            "Innodb_pages_written",
            "Innodb_pages_created",
            "Innodb_data_read",
            "Innodb_data_written",
            "Innodb_data_reads",
            "Innodb_data_writes",
            "Innodb_data_fsyncs",
            "Innodb_os_log_written",
            "Innodb_log_waits",
            "Innodb_log_writes",
            "Innodb_row_lock_waits",
            "Innodb_row_lock_time",
            "Innodb_deadlocks",
            "Questions",
            "Queries",
            "Rows_read",
            "Rows_sent",
            "Com_select",
            "Com_update",
            "Com_insert",
            "Com_delete",
            "Com_replace",
            "Com_commit",
            "Com_rollback",
            "Bytes_sent",
            "Bytes_received",
            "Slow_queries",
            "Handler_read_key",
            "Handler_read_next",
            "Handler_write",
            "Handler_update",
            "Handler_delete",
            "Created_tmp_tables",
            "Created_tmp_disk_tables",
            "Select_scan",
            "Sort_rows",
            "Table_locks_waited",
            "Opened_tables",
            "Table_open_cache_misses",
            "Connections",
            "Aborted_connects");

    /**
     * MyRocks (kept by the Rocksdb_ prefix): its status variables are RocksDB's statistics tickers, running
     * totals, except these levels: memtable sizes, open iterators, manual compactions running now.
     */
    private static final Set<String> EXPECTED_ROCKSDB_GAUGES = Set.of(
            "Rocksdb_memtable_total",
            "Rocksdb_memtable_unflushed",
            "Rocksdb_num_iterators",
            "Rocksdb_manual_compactions_running");

    /** The MyRocks counters a DBA reaches for first: write stalls, the block cache, lock trouble. */
    private static final List<String> ROCKSDB_FIRST = List.of(
            "Rocksdb_stall_micros",
            "Rocksdb_stall_total_stops",
            "Rocksdb_stall_total_slowdowns",
            "Rocksdb_stall_pending_compaction_limit_stops",
            "Rocksdb_stall_pending_compaction_limit_slowdowns",
            "Rocksdb_stall_memtable_limit_stops",
            "Rocksdb_stall_l0_file_count_limit_stops",
            "Rocksdb_block_cache_hit",
            "Rocksdb_block_cache_miss",
            "Rocksdb_row_lock_deadlocks",
            "Rocksdb_row_lock_wait_timeouts",
            "Rocksdb_memtable_total",
            "Rocksdb_memtable_unflushed");

    private static Map<String, CounterKind> expectedDefaults() {
        Map<String, CounterKind> m = new LinkedHashMap<>();
        EXPECTED_GAUGES.forEach(n -> m.put(n, GAUGE));
        EXPECTED_COUNTERS.forEach(n -> m.put(n, COUNTER));
        return m;
    }

    private static Connection connect() throws Exception {
        return DriverManager.getConnection(
                TestServers.mariadbUrl(), TestServers.mariadbUser(), TestServers.mariadbPassword());
    }

    @Test
    void everyDefaultExistsAndEveryCounterOnlyGrows() throws Exception {
        TargetKind kind = TargetKinds.of("MARIADB");
        Map<String, CounterKind> defaults = kind.defaultCounters();
        try (JdbcTarget target = (JdbcTarget) Targets.open(TestServers.mariadb())) {
            List<Connection> extra = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                extra.add(connect());
            }
            Map<String, Double> before = target.snapshot();
            // the same names and, name by name, the kinds written down above
            Map<String, CounterKind> expected = expectedDefaults();
            List<String> differ = new ArrayList<>();
            expected.forEach((name, k) -> {
                if (defaults.get(name) != k) {
                    differ.add(name + ": expected " + k + ", production " + defaults.get(name));
                }
            });
            defaults.keySet().stream()
                    .filter(n -> !expected.containsKey(n))
                    .forEach(n -> differ.add(n + ": a default without a kind written down in this test"));
            assertEquals(List.of(), differ, "the default MariaDB counters and their kinds");
            for (String name : defaults.keySet()) {
                assertTrue(before.containsKey(name), "default counter " + name + " exists on the server");
                assertEquals(expected.get(name), target.kindOf(name), name + ": the binding reports its kind");
            }
            List<String> rocks = before.keySet().stream()
                    .filter(n -> kind.defaultCounterPrefixes().stream().anyMatch(n::startsWith))
                    .toList();
            for (String name : ROCKSDB_FIRST) {
                assertTrue(rocks.contains(name), name + " is kept from the server's MyRocks counters: " + rocks);
            }
            for (String name : rocks) {
                assertEquals(
                        EXPECTED_ROCKSDB_GAUGES.contains(name) ? GAUGE : COUNTER,
                        target.kindOf(name),
                        name + ": the binding reports its kind");
            }
            for (Connection c : extra) {
                c.close();
            }
            work();
            Map<String, Double> after = target.snapshot();
            List<String> checked = new ArrayList<>(defaults.keySet());
            checked.addAll(rocks);
            for (String name : checked) {
                if (target.kindOf(name) == CounterKind.COUNTER) {
                    assertTrue(
                            after.get(name) >= before.get(name),
                            name + " is differenced but went from " + before.get(name) + " to " + after.get(name));
                }
            }
            assertTrue(after.get("Handler_write") > before.get("Handler_write"), "the work ran");
        }
    }

    /** Writes, reads and deletes on InnoDB and MyRocks; flushes MyRocks' memtables where the user may. */
    private static void work() throws Exception {
        try (Connection c = connect();
                Statement st = c.createStatement()) {
            for (String engine : List.of("InnoDB", "RocksDB")) {
                String table = "counters_it_" + engine.toLowerCase();
                st.execute("DROP TABLE IF EXISTS " + table);
                st.execute("CREATE TABLE " + table + " (k INT PRIMARY KEY, v VARCHAR(300)) ENGINE=" + engine);
                st.execute("INSERT INTO " + table + " SELECT seq, REPEAT('x', 200) FROM seq_1_to_2000");
                try (PreparedStatement ps = c.prepareStatement("SELECT v FROM " + table + " WHERE k = ?")) {
                    for (int k = 1; k <= 500; k++) {
                        ps.setInt(1, k);
                        try (ResultSet rs = ps.executeQuery()) {
                            assertTrue(rs.next());
                        }
                    }
                }
                st.execute("UPDATE " + table + " SET v = CONCAT(v, 'y') WHERE k <= 1000");
                st.execute("DELETE FROM " + table + " WHERE k > 1000");
                st.execute("DROP TABLE " + table);
            }
        }
    }
}
