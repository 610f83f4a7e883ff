package org.ivsbench.db.cassandra;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.ColumnDefinition;
import com.datastax.oss.driver.api.core.cql.Row;

import org.ivsbench.db.ServerActivity;

/**
 * Cassandra's activity snapshot from its virtual tables (CQL over the target's connection, nothing to enable):
 * {@code system_views.thread_pools} (active, pending and blocked tasks per stage: a write stall shows as
 * MutationStage or MemtableFlushWriter tasks pending or blocked), {@code system_views.queries} (each request
 * running now, with how long it queued and ran), {@code system_views.sstable_tasks} (compactions and other
 * SSTable work in progress) and the internode messages dropped ({@code system_views.internode_inbound} and
 * {@code internode_outbound}: expired, overloaded and failed counts per peer; Cassandra 5.0 has no view of the
 * per-verb dropped-message counters, which are JMX only, and a single node has no peers). A view this server
 * does not have is replaced by a note. One node's view: the one the driver asked.
 */
final class CassandraActivity implements ServerActivity {
    private static final String[] INTERNODE = {"internode_inbound", "internode_outbound"};
    private static final List<String> DROPPED = List.of("expired_count", "overload_count", "error_count");

    private final CqlSession session;

    CassandraActivity(CqlSession session) {
        this.session = session;
    }

    @Override
    public Map<String, Object> activity() {
        Map<String, Object> snapshot = new LinkedHashMap<>();
        view(snapshot, "threadPools", "SELECT * FROM system_views.thread_pools");
        view(snapshot, "queries", "SELECT * FROM system_views.queries");
        view(snapshot, "sstableTasks", "SELECT * FROM system_views.sstable_tasks");
        List<Map<String, Object>> dropped = new ArrayList<>();
        for (String table : INTERNODE) {
            try {
                for (Row row : session.execute("SELECT * FROM system_views." + table)) {
                    Map<String, Object> peer = new LinkedHashMap<>();
                    peer.put("direction", table.substring("internode_".length()));
                    peer.put("address", String.valueOf(row.getObject("address")));
                    for (ColumnDefinition c : row.getColumnDefinitions()) {
                        String name = c.getName().asInternal();
                        if (DROPPED.contains(name)) {
                            peer.put(name, row.getObject(name));
                        }
                    }
                    dropped.add(peer);
                }
            } catch (RuntimeException e) {
                snapshot.put("droppedNote", "reading system_views." + table + " failed: " + e.getMessage());
            }
        }
        snapshot.put("internodeDropped", dropped);
        return snapshot;
    }

    /** Every row of a view as column -> value (text, numbers, booleans; other types as text). */
    private void view(Map<String, Object> snapshot, String key, String cql) {
        List<Map<String, Object>> rows = new ArrayList<>();
        try {
            for (Row row : session.execute(cql)) {
                Map<String, Object> out = new LinkedHashMap<>();
                for (ColumnDefinition c : row.getColumnDefinitions()) {
                    String name = c.getName().asInternal();
                    Object v = row.getObject(name);
                    out.put(
                            name,
                            v == null || v instanceof Number || v instanceof Boolean
                                    ? v
                                    : ServerActivity.truncate(String.valueOf(v)));
                }
                rows.add(out);
            }
            snapshot.put(key, rows);
        } catch (RuntimeException e) {
            snapshot.put(
                    key + "Note",
                    "reading " + cql.substring(cql.indexOf("system_views")) + " failed: " + e.getMessage());
        }
    }
}
