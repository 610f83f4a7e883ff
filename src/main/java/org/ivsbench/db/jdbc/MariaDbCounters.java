package org.ivsbench.db.jdbc;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.ivsbench.db.CounterKind;

import static org.ivsbench.db.CounterKind.COUNTER;
import static org.ivsbench.db.CounterKind.GAUGE;

/**
 * MariaDB's status variables for the monitor: the default subset, each with its kind stated, and the kind of
 * any other name. The server reports ~500; the default keeps the ones that explain throughput steps in
 * YCSB-IVS (buffer pool and block cache hits/misses, pages and bytes read/written, flushing, locks and
 * waits, statement counts, traffic, stalls, connections) so monitor.csv stays readable, plus every MyRocks
 * counter (the engine under study, about a hundred of them).
 *
 * <p>Kinds are listed name by name because the names do not tell: {@code Innodb_buffer_pool_pages_flushed} is a
 * running total among levels of the same prefix, {@code Innodb_checkpoint_age} a level.
 * MariaDbCountersIntegrationTest checks every default on the real server.
 */
final class MariaDbCounters {

    /** Every default name with its kind, in the order monitor.csv shows them. */
    static final Map<String, CounterKind> DEFAULTS = defaults();

    /** Every MyRocks counter is kept by default. */
    static final List<String> DEFAULT_PREFIXES = List.of("Rocksdb_");

    /** The MyRocks status variables that are levels; every other Rocksdb_ variable is a running total. */
    private static final Set<String> ROCKSDB_GAUGES = Set.of(
            "rocksdb_memtable_total",
            "rocksdb_memtable_unflushed",
            "rocksdb_num_iterators",
            "rocksdb_manual_compactions_running",
            "rocksdb_block_cache_usage",
            "rocksdb_live_sst_files_size",
            "rocksdb_total_sst_files_size");

    /** For names outside the defaults (a user's selection): beginnings of levels, not running totals. */
    private static final Set<String> OTHER_GAUGE_PREFIXES = Set.of(
            "innodb_buffer_pool_pages_",
            "innodb_buffer_pool_bytes_",
            "threads_",
            "open_",
            "uptime",
            "memory_used",
            "innodb_num_open_files",
            "innodb_page_size",
            "key_blocks_",
            "qcache_free_",
            "qcache_queries_in_cache",
            "qcache_total_blocks");

    private static final Map<String, CounterKind> DEFAULTS_LOWER = lower(DEFAULTS);

    private MariaDbCounters() {}

    private static Map<String, CounterKind> defaults() {
        Map<String, CounterKind> m = new LinkedHashMap<>();
        // InnoDB buffer pool: levels (pages, bytes) and running totals (logical requests vs reads from disk)
        for (String gauge : List.of(
                "Innodb_buffer_pool_pages_free",
                "Innodb_buffer_pool_pages_data",
                "Innodb_buffer_pool_pages_dirty",
                "Innodb_buffer_pool_pages_total",
                "Innodb_buffer_pool_bytes_data",
                "Innodb_buffer_pool_bytes_dirty")) {
            m.put(gauge, GAUGE);
        }
        for (String counter : List.of(
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
                "Innodb_deadlocks")) {
            m.put(counter, COUNTER);
        }
        // levels a DBA looks at first: lock waits now, purge backlog, redo not yet checkpointed
        m.put("Innodb_row_lock_current_waits", GAUGE);
        m.put("Innodb_history_list_length", GAUGE);
        m.put("Innodb_checkpoint_age", GAUGE);
        // the age at which InnoDB must flush before writes go on (the redo log's usable size): the age's limit
        m.put("Innodb_checkpoint_max_age", GAUGE);
        // statements and traffic
        // (MariaDB 10.6 dropped Innodb_rows_*; Rows_read and the Handler_ counters count rows for every engine.)
        for (String counter : List.of(
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
                "Aborted_connects")) {
            m.put(counter, COUNTER);
        }
        for (String gauge :
                List.of("Open_tables", "Threads_connected", "Threads_running", "Max_used_connections", "Memory_used")) {
            m.put(gauge, GAUGE);
        }
        return Collections.unmodifiableMap(m);
    }

    private static Map<String, CounterKind> lower(Map<String, CounterKind> m) {
        Map<String, CounterKind> lower = new LinkedHashMap<>();
        m.forEach((k, v) -> lower.put(k.toLowerCase(Locale.ROOT), v));
        return lower;
    }

    /** The kind of any status variable: as listed for the defaults, else by the families above. */
    static CounterKind kindOf(String counterName) {
        String name = counterName.toLowerCase(Locale.ROOT);
        CounterKind listed = DEFAULTS_LOWER.get(name);
        if (listed != null) {
            return listed;
        }
        if (name.startsWith("rocksdb_")) {
            return ROCKSDB_GAUGES.contains(name) ? GAUGE : COUNTER;
        }
        for (String prefix : OTHER_GAUGE_PREFIXES) {
            if (name.startsWith(prefix)) {
                return GAUGE;
            }
        }
        return COUNTER;
    }

    static boolean isGauge(String counterName) {
        return kindOf(counterName) == GAUGE;
    }
}
