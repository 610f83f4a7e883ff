package org.ivsbench.run;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;

import org.ivsbench.config.Shard;
import org.ivsbench.db.ServerClock;
import org.ivsbench.db.Session;
import org.ivsbench.db.TableSpec;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;
import org.ivsbench.op.OpResult;
import org.ivsbench.op.Outcome;

/**
 * The shards' start barrier, met in the database under test (every target has key/value records, so no other
 * service is needed): each shard writes its arrival instant into the small table {@value #TABLE}; whoever sees all
 * n arrivals writes the start instant, the latest arrival plus {@link #LEAD_MS} (every shard that computes it gets
 * the same value); each shard sleeps until that instant.
 *
 * <p>The common clock is the database server's where the target can read it ({@link ServerClock}): on arrival
 * each shard measures its clock's offset against the server's ({@link ClockOffset}, within a stated bound) and,
 * when the offset is larger than its bound, shifts the instants it writes and the one it sleeps until by it in
 * whole milliseconds, so shards on hosts whose clocks disagree still start together to within about the bound
 * plus a millisecond. An offset within its bound (one host; hosts NTP keeps closer than the bound) is left
 * uncorrected: the shards start at one instant of their own clocks. Where the target cannot read its clock, the
 * skew is the hosts' clock offset, which the barrier then cannot see.
 *
 * <p>A start row counts only when it lies after this shard's arrival and an arrival row only when it is at most
 * the timeout older than this shard's, so rows an earlier run left behind are ignored. Each shard re-writes its
 * arrival while it waits (a shard that created the table may have dropped another's first row). A shard leaves the
 * wait only with a start instant it has read from the table: one that computed it reads its write back first, so a
 * write that did not land (a lost race, a deadlock's victim) cannot let it go while the others never see the start.
 * It deletes its arrival only once the start instant has passed, so until then any shard still waiting can compute
 * the same instant from the arrivals alone.
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
    private final LongSupplier localNanos;
    private final Map<String, Object> facts = new LinkedHashMap<>();
    /** The last failure of a barrier statement, which a timeout names (each is otherwise retried silently). */
    private String lastError;

    /** {@code group}: names this run's rows (the shards of one run must give the same, e.g. the config digest). */
    public StartBarrier(Target target, Shard shard, String group, long timeoutMs) {
        this(target, shard, group, timeoutMs, ClockOffset::wallNanos);
    }

    /** With this host's wall clock in epoch nanoseconds given (a test simulates a host whose clock is off). */
    StartBarrier(Target target, Shard shard, String group, long timeoutMs, LongSupplier localNanos) {
        this.target = target;
        this.shard = shard;
        this.group = group;
        this.timeoutMs = timeoutMs;
        this.localNanos = localNanos;
    }

    /**
     * Registers, waits for the others and then until the start instant; returns that instant (epoch ms on this
     * host's clock). Throws a TargetException naming the shards that did not arrive within the timeout.
     */
    public long await() throws TargetException, InterruptedException {
        long correction = measureOffset();
        long arrivalLocal = nowMs();
        facts.put("arrivalMs", arrivalLocal);
        // Every instant in the table is on the common clock: this host's plus the correction.
        long arrival = arrivalLocal + correction;
        try (Session session = target.openSession()) {
            ensureTable(session, arrivalLocal);
            long start = -1;
            while (start < 0) {
                upsert(session, arrivalKey(shard.index()), arrival);
                Long written = read(session, startKey());
                if (written != null && written > arrival) {
                    start = written;
                    break;
                }
                long latest = arrival;
                List<Integer> absent = new ArrayList<>();
                for (int j = 0; j < shard.count(); j++) {
                    Long a = j == shard.index() ? Long.valueOf(arrival) : read(session, arrivalKey(j));
                    if (a == null || a < arrival - timeoutMs) {
                        absent.add(j);
                    } else {
                        latest = Math.max(latest, a);
                    }
                }
                if (absent.isEmpty()) {
                    upsert(session, startKey(), latest + LEAD_MS);
                    Long landed = read(session, startKey());
                    if (landed != null && landed > arrival) {
                        start = landed; // this write, or another shard's of the same instant
                        break;
                    }
                }
                if (nowMs() - arrivalLocal > timeoutMs) {
                    throw new TargetException(
                            absent.isEmpty()
                                    ? "start barrier: all " + shard.count()
                                            + " shards arrived, but the start instant could"
                                            + " not be written to " + TABLE + " within " + timeoutMs / 1000
                                            + " s (--barrier-timeout)"
                                    : "start barrier: shard(s) " + absent + " of " + shard.count()
                                            + " did not arrive within " + timeoutMs / 1000 + " s (--barrier-timeout)"
                                            + (lastError == null
                                                    ? ""
                                                    : "; the barrier's last failed statement: " + lastError));
                }
                Thread.sleep(POLL_MS);
            }
            long planned = start - correction;
            facts.put("commonStartMs", start);
            facts.put("plannedStartMs", planned);
            sleepUntil(planned);
            long started = nowMs();
            try {
                session.delete(TABLE, arrivalKey(shard.index()));
            } catch (TargetException e) {
                // Left behind: later runs ignore it once it is older than their timeout.
            }
            facts.put("startedMs", started);
            facts.put("startLateMs", started - planned);
            facts.put("waitedMs", started - arrivalLocal);
            return planned;
        }
    }

    /**
     * What summary.json records of the barrier: the clock offset against the server's and its bound, the
     * correction applied, arrival, planned and actual start (this host's clock) and the common start instant.
     */
    public Map<String, Object> facts() {
        return new LinkedHashMap<>(facts);
    }

    /**
     * This host's clock against the server's (ms to add to the local clock: 0 when the target cannot read its
     * clock, the reading failed or the offset is within its bound); recorded in the facts.
     */
    private long measureOffset() {
        Optional<ServerClock> clock = target.capability(ServerClock.class);
        if (clock.isEmpty()) {
            return unmeasured(null, null);
        }
        try {
            ClockOffset offset = ClockOffset.measure(clock.get(), localNanos);
            facts.putAll(offset.facts());
            facts.put("startCorrectionMs", offset.correctionMs());
            return offset.correctionMs();
        } catch (TargetException e) {
            return unmeasured(clock.get().source(), String.valueOf(e.getMessage()));
        }
    }

    /** No offset: the facts say why ({@code source} null: the target cannot read its clock); no correction. */
    private long unmeasured(String source, String error) {
        facts.put("serverClock", source);
        facts.put("serverClockOffsetMs", null);
        facts.put("offsetBoundMs", null);
        if (error != null) {
            facts.put("serverClockError", error);
        }
        facts.put("startCorrectionMs", 0L);
        return 0;
    }

    private long nowMs() {
        return Math.floorDiv(localNanos.getAsLong(), 1_000_000L);
    }

    private void sleepUntil(long wallMs) throws InterruptedException {
        for (long left = wallMs - nowMs(); left > 0; left = wallMs - nowMs()) {
            Thread.sleep(Math.min(left, 50));
        }
    }

    /**
     * Creates the table when it is absent. Two shards may both create it (create drops first: the re-written
     * arrivals repair that), and one's create may fail while the other's holds a lock: then read again.
     */
    private void ensureTable(Session session, long arrivalLocal) throws TargetException, InterruptedException {
        while (true) {
            try {
                session.read(TABLE, startKey(), List.of(FIELD), new HashMap<>());
                return;
            } catch (TargetException absent) {
                try {
                    target.createTable(new TableSpec(TABLE, "barrier_key", List.of(FIELD), 32, null));
                    return;
                } catch (TargetException e) {
                    if (nowMs() - arrivalLocal > timeoutMs) {
                        throw new TargetException(
                                "start barrier: cannot create the table " + TABLE + ": " + e.getMessage());
                    }
                    Thread.sleep(POLL_MS);
                }
            }
        }
    }

    private void upsert(Session session, String key, long value) {
        Map<String, String> v = Map.of(FIELD, Long.toString(value));
        try {
            OpResult r = session.update(TABLE, key, v);
            if (r.outcome() == Outcome.ABORTED) {
                session.insert(TABLE, key, v); // a concurrent insert of the same key loses; the next round retries
            }
        } catch (TargetException e) {
            lastError = e.getMessage(); // the table being re-created by another shard: the next round writes again
        }
    }

    private Long read(Session session, String key) {
        Map<String, String> out = new HashMap<>();
        try {
            OpResult r = session.read(TABLE, key, List.of(FIELD), out);
            String v = out.get(FIELD);
            return r.isOk() && v != null ? Long.valueOf(v.trim()) : null;
        } catch (TargetException | NumberFormatException e) {
            lastError = e.getMessage(); // being re-created by another shard: the next round reads again
            return null;
        }
    }

    private String arrivalKey(int index) {
        return group + "." + shard.count() + ".arrive." + index;
    }

    private String startKey() {
        return group + "." + shard.count() + ".start";
    }
}
