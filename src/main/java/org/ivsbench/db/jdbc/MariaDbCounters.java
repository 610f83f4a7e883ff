package org.ivsbench.db.jdbc;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.ivsbench.db.CounterKind;

/**
 * MariaDB's status variables for the monitor: which are levels rather than running totals, and the default
 * subset. The server reports ~500; the default keeps the ones that explain throughput steps in YCSB-IVS
 * (buffer pool and block cache hits/misses, pages and bytes read/written, statement counts, traffic, stalls,
 * connections) so monitor.csv stays readable, plus every MyRocks counter (the engine under study, fewer than a
 * hundred of them).
 */
final class MariaDbCounters {
    /** Counters that are levels, not running totals (reported as they are, not as deltas). */
    private static final Set<String> GAUGE_PREFIXES = Set.of(
            "innodb_buffer_pool_pages_", "innodb_buffer_pool_bytes_", "threads_", "open_", "uptime",
            "memory_used", "innodb_history_list_length", "innodb_row_lock_current_waits", "innodb_num_open_files",
            "max_used_connections", "innodb_page_size", "rocksdb_block_cache_usage", "rocksdb_memtable_total",
            "rocksdb_memtable_unflushed", "rocksdb_estimate_", "rocksdb_num_", "rocksdb_live_sst_files_size",
            "rocksdb_total_sst_files_size", "key_blocks_", "qcache_free_", "qcache_queries_in_cache",
            "qcache_total_blocks");

    private static final List<String> DEFAULT_NAMES = List.of(
            // InnoDB buffer pool: gauges (pages) and counters (logical requests vs reads that went to disk)
            "Innodb_buffer_pool_pages_free", "Innodb_buffer_pool_pages_data", "Innodb_buffer_pool_pages_dirty",
            "Innodb_buffer_pool_pages_total", "Innodb_buffer_pool_bytes_data", "Innodb_buffer_pool_bytes_dirty",
            "Innodb_buffer_pool_read_requests", "Innodb_buffer_pool_reads", "Innodb_buffer_pool_write_requests",
            "Innodb_buffer_pool_wait_free", "Innodb_buffer_pool_pages_flushed",
            "Innodb_pages_read", "Innodb_pages_written", "Innodb_pages_created",
            "Innodb_data_read", "Innodb_data_written", "Innodb_data_reads", "Innodb_data_writes",
            "Innodb_data_fsyncs", "Innodb_os_log_written", "Innodb_log_waits", "Innodb_log_writes",
            "Innodb_rows_read", "Innodb_rows_inserted", "Innodb_rows_updated", "Innodb_rows_deleted",
            "Innodb_row_lock_waits", "Innodb_row_lock_time", "Innodb_history_list_length",
            "Innodb_checkpoint_age",
            // statements and traffic
            "Questions", "Queries", "Com_select", "Com_update", "Com_insert", "Com_delete", "Com_replace",
            "Com_commit", "Com_rollback", "Bytes_sent", "Bytes_received", "Slow_queries",
            "Handler_read_key", "Handler_read_next", "Handler_write", "Handler_update", "Handler_delete",
            "Created_tmp_tables", "Created_tmp_disk_tables", "Select_scan", "Sort_rows",
            "Table_locks_waited", "Opened_tables", "Open_tables",
            "Threads_connected", "Threads_running", "Connections", "Aborted_connects", "Max_used_connections",
            "Memory_used");

    /** The default names with their kind, derived from {@link #isGauge} so the two cannot disagree. */
    static final Map<String, CounterKind> DEFAULTS = defaults();

    /** Every MyRocks counter is kept by default. */
    static final List<String> DEFAULT_PREFIXES = List.of("Rocksdb_");

    private MariaDbCounters() {
    }

    static boolean isGauge(String counterName) {
        String name = counterName.toLowerCase(Locale.ROOT);
        for (String prefix : GAUGE_PREFIXES) {
            if (name.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    private static Map<String, CounterKind> defaults() {
        Map<String, CounterKind> defaults = new LinkedHashMap<>();
        for (String name : DEFAULT_NAMES) {
            defaults.put(name, isGauge(name) ? CounterKind.GAUGE : CounterKind.COUNTER);
        }
        return Collections.unmodifiableMap(defaults);
    }
}
