package org.ivsbench.db.cassandra;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;

import org.ivsbench.db.Quiescence;
import org.ivsbench.db.QuietGauge;
import org.ivsbench.db.TargetException;

/**
 * Quiet on Cassandra, read from system_views over the target's session (no nodetool, no JMX): no flush and no
 * compaction active or pending in the thread pools that do them, and no SSTable task (compaction, cleanup,
 * ...) running. CQL has no statement that forces a flush, so the memtables stay as the writes left them on both
 * sides; the wait only lets the flushes and compactions already under way finish.
 */
final class CassandraQuiet implements Quiescence {
    private static final List<String> POOLS = List.of("MemtableFlushWriter", "MemtablePostFlush", "CompactionExecutor");

    /** Settings compared between the primary's server and a fresh instance. */
    static final List<String> SETTINGS = List.of(
            "memtable_heap_space",
            "memtable_offheap_space",
            "memtable_allocation_type",
            "concurrent_compactors",
            "compaction_throughput",
            "concurrent_reads",
            "concurrent_writes",
            "commitlog_sync",
            "commitlog_sync_period",
            "key_cache_size",
            "row_cache_size",
            "disk_access_mode",
            "file_cache_size");

    private final CqlSession session;

    CassandraQuiet(CqlSession session) {
        this.session = session;
    }

    @Override
    public Probe settle(String table) {
        return new Probe() {
            @Override
            public List<QuietGauge> read() throws TargetException {
                try {
                    return gauges();
                } catch (RuntimeException e) {
                    throw CassandraErrors.failure("read system_views", e);
                }
            }

            @Override
            public void close() {}
        };
    }

    private List<QuietGauge> gauges() {
        List<QuietGauge> gauges = new ArrayList<>();
        Map<String, Long> work = new TreeMap<>();
        for (Row row : session.execute("SELECT name, active_tasks, pending_tasks FROM system_views.thread_pools")) {
            String name = row.getString("name");
            if (POOLS.contains(name)) {
                work.put(name, number(row.getObject("active_tasks")) + number(row.getObject("pending_tasks")));
            }
        }
        for (String pool : POOLS) {
            gauges.add(QuietGauge.atMost("thread_pools." + pool + ".active+pending", work.getOrDefault(pool, 0L), 0));
        }
        long tasks = 0;
        for (Row ignored : session.execute("SELECT keyspace_name FROM system_views.sstable_tasks")) {
            tasks++;
        }
        gauges.add(QuietGauge.atMost("sstable_tasks", tasks, 0));
        return gauges;
    }

    /** A count column whatever its CQL integer type (int or bigint by version); null is 0. */
    private static long number(Object value) {
        return value instanceof Number n ? n.longValue() : 0;
    }

    /** {@link #SETTINGS} as system_views.settings reports them (names the server does not know are left out). */
    static Map<String, Object> settings(CqlSession session) {
        Map<String, Object> settings = new TreeMap<>();
        for (Row row : session.execute("SELECT name, value FROM system_views.settings")) {
            String name = row.getString("name");
            if (SETTINGS.contains(name)) {
                settings.put(name, row.getString("value"));
            }
        }
        return settings;
    }

    /** Every row of system_views.settings: the node's settings as it runs them, for the monitor's record of changes. */
    static Map<String, String> allSettings(CqlSession session) {
        Map<String, String> settings = new TreeMap<>();
        for (Row row : session.execute("SELECT name, value FROM system_views.settings")) {
            settings.put(row.getString("name"), row.getString("value"));
        }
        return settings;
    }
}
