package org.ivsbench.db.cassandra;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.ColumnDefinition;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.type.DataTypes;

import org.ivsbench.db.CounterKind;

/**
 * The server's counters for the monitor, read from Cassandra's virtual tables (system_views, CQL over the same
 * connection, no nodetool or JMX): thread pools, caches, connected clients and the per-table request counts.
 * Names are flat: {@code thread_pools.ReadStage.completed_tasks}, {@code caches.keys.hit_count},
 * {@code clients.connected}, {@code coordinator_read.<keyspace>.<table>.count}. A virtual table answers for the
 * node the driver asked (the coordinator it picked): with one node that is the whole server; on a cluster it is
 * one node's view.
 */
final class ServerViews {

    /** The thread pools whose work the benchmark causes: reads, writes, client requests, flushes, compactions. */
    private static final List<String> POOLS = List.of(
            "ReadStage",
            "MutationStage",
            "Native-Transport-Requests",
            "MemtableFlushWriter",
            "CompactionExecutor",
            "GossipStage");
    /** The chunk cache appears only when the server enables it (not with a small heap): reported when present. */
    private static final List<String> CACHES = List.of("keys", "rows", "counters");

    /**
     * The per-table latency views whose {@code count} is the number of requests of that kind the node served
     * for the table since it started: coordinator = as the node that received the client's request, local = as
     * a replica.
     */
    private static final List<String> TABLE_VIEWS = List.of(
            "coordinator_read", "coordinator_write", "coordinator_scan", "local_read", "local_write", "local_scan");

    static final List<String> TABLE_PREFIXES =
            TABLE_VIEWS.stream().map(v -> v + ".").toList();

    static final Map<String, CounterKind> DEFAULTS = defaults();

    private ServerViews() {}

    private static Map<String, CounterKind> defaults() {
        Map<String, CounterKind> all = new LinkedHashMap<>();
        for (String pool : POOLS) {
            all.put("thread_pools." + pool + ".completed_tasks", CounterKind.COUNTER);
            all.put("thread_pools." + pool + ".blocked_tasks_all_time", CounterKind.COUNTER);
            all.put("thread_pools." + pool + ".active_tasks", CounterKind.GAUGE);
            all.put("thread_pools." + pool + ".pending_tasks", CounterKind.GAUGE);
        }
        for (String cache : CACHES) {
            all.put("caches." + cache + ".hit_count", CounterKind.COUNTER);
            all.put("caches." + cache + ".request_count", CounterKind.COUNTER);
            all.put("caches." + cache + ".size_bytes", CounterKind.GAUGE);
            all.put("caches." + cache + ".entry_count", CounterKind.GAUGE);
        }
        all.put("clients.connected", CounterKind.GAUGE);
        return Collections.unmodifiableMap(all);
    }

    /** Per-table request counts are running totals; every other name not in {@link #DEFAULTS} is a level. */
    static CounterKind kindOf(String name) {
        CounterKind known = DEFAULTS.get(name);
        if (known != null) {
            return known;
        }
        return name.endsWith(".count")
                        || name.endsWith(".hit_count")
                        || name.endsWith(".request_count")
                        || name.endsWith(".blocked_tasks_all_time")
                        || name.endsWith(".completed_tasks")
                ? CounterKind.COUNTER
                : CounterKind.GAUGE;
    }

    /** One snapshot: every numeric column of the views above. */
    static Map<String, Double> snapshot(CqlSession session) {
        Map<String, Double> out = new LinkedHashMap<>();
        for (Row row : session.execute("SELECT * FROM system_views.thread_pools")) {
            numbers(row, "thread_pools." + row.getString("name") + ".", out);
        }
        for (Row row : session.execute("SELECT * FROM system_views.caches")) {
            numbers(row, "caches." + row.getString("name") + ".", out);
        }
        long clients = 0;
        for (Row ignored : session.execute("SELECT address FROM system_views.clients")) {
            clients++;
        }
        out.put("clients.connected", (double) clients);
        for (String view : TABLE_VIEWS) {
            for (Row row :
                    session.execute("SELECT keyspace_name, table_name, count FROM system_views." + view + "_latency")) {
                String keyspace = row.getString("keyspace_name");
                if (keyspace == null || keyspace.startsWith("system")) {
                    continue; // the server's own tables: not what the benchmark asked for
                }
                out.put(view + "." + keyspace + "." + row.getString("table_name") + ".count", (double)
                        row.getLong("count"));
            }
        }
        return out;
    }

    private static void numbers(Row row, String prefix, Map<String, Double> out) {
        for (ColumnDefinition column : row.getColumnDefinitions()) {
            String name = column.getName().asInternal();
            if (row.isNull(name)) {
                continue;
            }
            if (column.getType().equals(DataTypes.BIGINT)) {
                out.put(prefix + name, (double) row.getLong(name));
            } else if (column.getType().equals(DataTypes.INT)) {
                out.put(prefix + name, (double) row.getInt(name));
            } else if (column.getType().equals(DataTypes.DOUBLE)) {
                out.put(prefix + name, row.getDouble(name));
            }
        }
    }
}
