package org.ivsbench.run;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.ivsbench.config.Shard;
import org.ivsbench.db.Session;
import org.ivsbench.db.TableSpec;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;
import org.ivsbench.op.OpResult;
import org.ivsbench.op.Outcome;

/**
 * The shards' start barrier, met in the database under test (every target has key/value records, so no other
 * service is needed): each shard writes its arrival instant (its own wall clock) into the small table
 * {@value #TABLE}; whoever sees all n arrivals writes the start instant, the latest arrival plus {@link #LEAD_MS}
 * (every shard that computes it gets the same value); each shard sleeps until that instant on its own clock.
 *
 * <p>So the shards start phase 1 at one wall-clock instant, as far apart as their clocks are: on one host not at
 * all, across hosts by their NTP offset (chrony keeps it within milliseconds on a LAN); the barrier cannot measure
 * that. A start row counts only when it lies after this shard's arrival and an arrival row only when it is at most
 * the timeout older than this shard's, so rows an earlier run left behind are ignored. Each shard re-writes its
 * arrival while it waits (a shard that created the table may have dropped another's first row) and deletes it once
 * it has the start instant.
 */
public final class StartBarrier {
    static final String TABLE = "ivsbench_barrier";
    static final long LEAD_MS = 2000;
    private static final long POLL_MS = 100;
    private static final String FIELD = "instant_ms";

    private final Target target;
    private final Shard shard;
    private final String group;
    private final long timeoutMs;
    private final Map<String, Object> facts = new LinkedHashMap<>();

    /** {@code group}: names this run's rows (the shards of one run must give the same, e.g. the config digest). */
    public StartBarrier(Target target, Shard shard, String group, long timeoutMs) {
        this.target = target;
        this.shard = shard;
        this.group = group;
        this.timeoutMs = timeoutMs;
    }

    /**
     * Registers, waits for the others and then until the start instant; returns that instant (epoch ms). Throws
     * a TargetException naming the shards that did not arrive within the timeout.
     */
    public long await() throws TargetException, InterruptedException {
        long arrival = System.currentTimeMillis();
        facts.put("arrivalMs", arrival);
        try (Session session = target.openSession()) {
            ensureTable(session, arrival);
            long start = -1;
            List<Integer> absent = List.of();
            while (start < 0) {
                upsert(session, arrivalKey(shard.index()), arrival);
                Long written = read(session, startKey());
                if (written != null && written > arrival) {
                    start = written;
                    break;
                }
                long latest = arrival;
                absent = new ArrayList<>();
                for (int j = 0; j < shard.count(); j++) {
                    Long a = j == shard.index() ? Long.valueOf(arrival) : read(session, arrivalKey(j));
                    if (a == null || a < arrival - timeoutMs) {
                        absent.add(j);
                    } else {
                        latest = Math.max(latest, a);
                    }
                }
                if (absent.isEmpty()) {
                    start = latest + LEAD_MS;
                    upsert(session, startKey(), start);
                    break;
                }
                if (System.currentTimeMillis() - arrival > timeoutMs) {
                    throw new TargetException("start barrier: shard(s) " + absent + " of " + shard.count()
                            + " did not arrive within " + timeoutMs / 1000 + " s (--barrier-timeout)");
                }
                Thread.sleep(POLL_MS);
            }
            try {
                session.delete(TABLE, arrivalKey(shard.index()));
            } catch (TargetException e) {
                // Left behind: later runs ignore it once it is older than their timeout.
            }
            facts.put("plannedStartMs", start);
            sleepUntil(start);
            long started = System.currentTimeMillis();
            facts.put("startedMs", started);
            facts.put("startLateMs", started - start);
            facts.put("waitedMs", started - arrival);
            return start;
        }
    }

    /** What summary.json records of the barrier: arrival, planned and actual start (this shard's clock). */
    public Map<String, Object> facts() {
        return new LinkedHashMap<>(facts);
    }

    private static void sleepUntil(long wallMs) throws InterruptedException {
        for (long left = wallMs - System.currentTimeMillis(); left > 0; left = wallMs - System.currentTimeMillis()) {
            Thread.sleep(Math.min(left, 50));
        }
    }

    /**
     * Creates the table when it is absent. Two shards may both create it (create drops first: the re-written
     * arrivals repair that), and one's create may fail while the other's holds a lock: then read again.
     */
    private void ensureTable(Session session, long arrival) throws TargetException, InterruptedException {
        while (true) {
            try {
                session.read(TABLE, startKey(), List.of(FIELD), new HashMap<>());
                return;
            } catch (TargetException absent) {
                try {
                    target.createTable(new TableSpec(TABLE, "barrier_key", List.of(FIELD), 32, null));
                    return;
                } catch (TargetException e) {
                    if (System.currentTimeMillis() - arrival > timeoutMs) {
                        throw new TargetException(
                                "start barrier: cannot create the table " + TABLE + ": " + e.getMessage());
                    }
                    Thread.sleep(POLL_MS);
                }
            }
        }
    }

    private static void upsert(Session session, String key, long value) {
        Map<String, String> v = Map.of(FIELD, Long.toString(value));
        try {
            OpResult r = session.update(TABLE, key, v);
            if (r.outcome() == Outcome.ABORTED) {
                session.insert(TABLE, key, v); // a concurrent insert of the same key loses; the next round retries
            }
        } catch (TargetException e) {
            // The table is being re-created by another shard: the next round writes again.
        }
    }

    private static Long read(Session session, String key) {
        Map<String, String> out = new HashMap<>();
        try {
            OpResult r = session.read(TABLE, key, List.of(FIELD), out);
            String v = out.get(FIELD);
            return r.isOk() && v != null ? Long.valueOf(v.trim()) : null;
        } catch (TargetException | NumberFormatException e) {
            return null; // being re-created by another shard: the next round reads again
        }
    }

    private String arrivalKey(int index) {
        return group + "." + shard.count() + ".arrive." + index;
    }

    private String startKey() {
        return group + "." + shard.count() + ".start";
    }
}
