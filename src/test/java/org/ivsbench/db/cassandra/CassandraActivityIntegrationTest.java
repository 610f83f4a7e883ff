package org.ivsbench.db.cassandra;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.ivsbench.db.ServerActivity;
import org.ivsbench.testsupport.HeldLock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Cassandra's activity snapshot on the real server: the stages' queues (system_views.thread_pools) with the
 * requests a second session sent counted in the client request stage, the request running now
 * (system_views.queries: the snapshot's own), the SSTable tasks and the internode drop counts (none on one node).
 */
class CassandraActivityIntegrationTest {
    private static final int REQUESTS = 50;

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> rows(Map<String, Object> snapshot, String key) {
        Object v = snapshot.get(key);
        assertTrue(v instanceof List, key + " missing: " + snapshot);
        return (List<Map<String, Object>>) v;
    }

    private static long completed(Map<String, Object> snapshot, String pool) {
        return rows(snapshot, "threadPools").stream()
                .filter(p -> pool.equals(p.get("name")))
                .mapToLong(p -> ((Number) p.get("completed_tasks")).longValue())
                .findFirst()
                .orElseThrow(() -> new AssertionError(pool + " not in " + snapshot));
    }

    @Test
    void theSnapshotShowsTheStagesTheRunningRequestsAndTheDrops() throws Exception {
        try (CassandraTarget target = CassandraTarget.openTarget(CassandraFixture.config(Map.of()));
                CassandraTarget second = CassandraTarget.openTarget(CassandraFixture.config(Map.of()))) {
            ServerActivity activity = target.capability(ServerActivity.class).orElseThrow();
            Map<String, Object> before = activity.activity();
            for (int i = 0; i < REQUESTS; i++) {
                second.session().execute("SELECT release_version FROM system.local");
            }
            Map<String, Object> after = activity.activity();
            HeldLock.record("cassandra", after);

            for (String pool : List.of(
                    "MutationStage",
                    "ReadStage",
                    "Native-Transport-Requests",
                    "CompactionExecutor",
                    "MemtableFlushWriter")) {
                Map<String, Object> row = rows(after, "threadPools").stream()
                        .filter(p -> pool.equals(p.get("name")))
                        .findFirst()
                        .orElseThrow(() -> new AssertionError(pool + " missing"));
                for (String column : List.of("active_tasks", "pending_tasks", "blocked_tasks")) {
                    assertTrue(row.get(column) instanceof Number, pool + "." + column + ": " + row);
                }
            }
            // every request of the second session ran as a task of the client request stage (others only add)
            long done = completed(after, "Native-Transport-Requests") - completed(before, "Native-Transport-Requests");
            assertTrue(done >= REQUESTS, "Native-Transport-Requests completed " + done + " tasks");
            assertTrue(
                    rows(after, "queries").stream()
                            .anyMatch(q -> String.valueOf(q.get("task")).contains("system_views.queries")),
                    after.toString());
            assertTrue(after.get("sstableTasks") instanceof List, after.toString());
            assertEquals(List.of(), after.get("internodeDropped"), "a single node has no peers");
        }
    }
}
