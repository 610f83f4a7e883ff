package org.ivsbench.monitor;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.ivsbench.db.mongo.ServerCounters;

/**
 * Which database counters become {@code db.*} columns. MariaDB alone reports ~500 status variables; the default
 * keeps the ones that explain throughput steps in YCSB-IVS (buffer pool and block cache hits/misses, pages and
 * bytes read/written, statement counts, traffic, stalls, connections) so monitor.csv stays readable; for MongoDB
 * it keeps every name the target reads from serverStatus (listed in org.ivsbench.db.mongo). {@link #ALL}
 * keeps every numeric one.
 */
public record CounterSelection(boolean all, Set<String> names, List<String> prefixes) {

    public static final CounterSelection ALL = new CounterSelection(true, Set.of(), List.of());

    public static final CounterSelection DEFAULT = new CounterSelection(false, union(Set.of(
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
            "Memory_used"),
            // MongoDB: the target reads only a chosen few from serverStatus; all of them, so the list lives
            // in one place (the target, which documents them) and the two cannot disagree.
            ServerCounters.NAMES),
            // Every MyRocks counter: the engine under study, and fewer than a hundred of them.
            List.of("Rocksdb_"));

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> all = new HashSet<>(a);
        all.addAll(b);
        return Set.copyOf(all);
    }

    public boolean includes(String name) {
        if (all || names.contains(name)) {
            return true;
        }
        for (String p : prefixes) {
            if (name.startsWith(p)) {
                return true;
            }
        }
        return false;
    }
}
