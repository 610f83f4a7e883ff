package org.ivsbench.run;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.config.Shard;
import org.ivsbench.config.TargetConfig;
import org.ivsbench.db.ExtendMethod;
import org.ivsbench.db.ForwardingTarget;
import org.ivsbench.db.Record;
import org.ivsbench.db.ServerClock;
import org.ivsbench.db.Session;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;
import org.ivsbench.db.TargetKinds;
import org.ivsbench.db.Targets;
import org.ivsbench.op.OpResult;
import org.ivsbench.testsupport.Await;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The start barrier's clock offset against the database server's: measured from the round trip with the least
 * time, bounded, and used to correct the start of a shard whose clock is off (simulated: two shards in one JVM,
 * one of them given a clock 3 s behind; the in-memory test database's "server clock" is the real one).
 */
class StartBarrierTest {
    private static final long BEHIND_NS = 3_000_000_000L;

    private static Target memory(String db) throws Exception {
        return Targets.open(TargetKinds.resolve(
                new TargetConfig("memory", null, "memory:" + db, null, null, null, false, Map.of())));
    }

    @Test
    void theRoundTripWithTheLeastTimeGivesTheOffsetAndItsBound() throws Exception {
        // Local send/receive instants (ns) and the server's readings (us) of five round trips: 10, 2, 6, 1 and 3 ms.
        Deque<Long> local = new ArrayDeque<>(List.of(
                0L,
                10_000_000L,
                20_000_000L,
                22_000_000L,
                30_000_000L,
                36_000_000L,
                40_000_000L,
                41_000_000L,
                50_000_000L,
                53_000_000L));
        Deque<Long> server = new ArrayDeque<>(List.of(505_000L, 521_250L, 533_000L, 540_000L, 552_000L));
        ServerClock clock = scripted(server, 4);
        assertEquals(5, ClockOffset.ROUNDS);
        ClockOffset o = ClockOffset.measure(clock, local::pop);
        // Round 4 (1 ms) is the least: midpoint 40.5 ms local, 540 ms server.
        assertEquals(499.5, o.offsetMs(), 1e-9);
        assertEquals(0.5 + 0.004, o.boundMs(), 1e-9, "half the round trip plus the resolution (4 us)");
        assertEquals(1.0, o.roundTripMs(), 1e-9);
        assertEquals(500, o.correctionMs());
        assertEquals(0, new ClockOffset("x", 0.4, 0.5, 1).correctionMs(), "within its bound: not corrected");
        assertEquals(0, new ClockOffset("x", -2.0, 2.5, 5).correctionMs(), "within its bound: not corrected");
        assertEquals(-3, new ClockOffset("x", -2.6, 2.5, 5).correctionMs());
    }

    @Test
    void aShardWhoseClockIsBehindStartsAtTheSameServerInstant() throws Exception {
        try (Target db = memory("barrier-offset")) {
            LongSupplier real = ClockOffset::wallNanos;
            LongSupplier behind = () -> ClockOffset.wallNanos() - BEHIND_NS;
            StartBarrier b0 = new StartBarrier(withRealClock(db), new Shard(0, 2), "g", 60_000, real);
            StartBarrier b1 = new StartBarrier(withRealClock(db), new Shard(1, 2), "g", 60_000, behind);
            ExecutorService pool = Executors.newFixedThreadPool(2);
            try {
                Future<Long> s0 = pool.submit(b0::await);
                Future<Long> s1 = pool.submit(b1::await);
                long start0 = s0.get();
                long start1 = s1.get();
                Map<String, Object> f0 = b0.facts();
                Map<String, Object> f1 = b1.facts();

                double o0 = (double) f0.get("serverClockOffsetMs");
                double bound0 = (double) f0.get("offsetBoundMs");
                assertTrue(Math.abs(o0) <= bound0 + 0.001, "shard 0's clock is the server's: " + f0);
                assertEquals(0L, f0.get("startCorrectionMs"));
                double o1 = (double) f1.get("serverClockOffsetMs");
                double bound1 = (double) f1.get("offsetBoundMs");
                assertTrue(Math.abs(o1 - 3000) <= bound1 + 0.001, "shard 1's clock is 3 s behind: " + f1);
                long correction = (long) f1.get("startCorrectionMs");
                assertTrue(Math.abs(correction - 3000) <= bound1 + 0.5, "corrected by the offset: " + f1);

                assertEquals(f0.get("commonStartMs"), f1.get("commonStartMs"), "one start instant, server clock");
                assertEquals(start0, (long) f0.get("plannedStartMs"));
                assertEquals(start1, (long) f1.get("plannedStartMs"));
                assertEquals(start0 - correction, start1, "shard 1 starts at its own clock's reading of it");
                assertEquals("scripted", f1.get("serverClock"));
            } finally {
                pool.shutdownNow();
            }
        }
    }

    /**
     * The shard that sees every arrival first writes the start instant, and that write is lost (as a deadlock's
     * victim or a lost insert race is on a real server); the other shard does not see the last arrival until then.
     * Both must still start, at one instant: the writer reads its write back before it leaves, and keeps its
     * arrival until the start has passed. (Before, the writer left at once and deleted its arrival, and the other
     * shard waited for it until the barrier timed out: a sharded preset test once hung so for 600 s.)
     */
    @Test
    void aStartInstantWhoseWriteIsLostIsWrittenAgainAndBothShardsStart() throws Exception {
        try (Target db = memory("barrier-lost-start")) {
            AtomicBoolean dropped = new AtomicBoolean();
            String startKey = "g.2.start";
            String lateArrival = "g.2.arrive.1";
            Target first = intercepted(
                    db,
                    (s, table, key, f, out) -> key.equals(lateArrival) && !dropped.get()
                            ? OpResult.aborted("not yet visible")
                            : s.read(table, key, f, out),
                    null);
            Target second = intercepted(db, null, (s, table, key, v, insert) -> {
                if (key.equals(startKey) && !dropped.get()) {
                    if (insert) {
                        dropped.set(true);
                    }
                    return OpResult.aborted("lost");
                }
                return insert ? s.insert(table, key, v) : s.update(table, key, v);
            });
            StartBarrier b0 = new StartBarrier(first, new Shard(0, 2), "g", 10_000);
            StartBarrier b1 = new StartBarrier(second, new Shard(1, 2), "g", 10_000);
            ExecutorService pool = Executors.newFixedThreadPool(2);
            try {
                Future<Long> s0 = pool.submit(b0::await);
                Await.until(
                        "shard 0's arrival",
                        Duration.ofSeconds(30),
                        Duration.ofMillis(10),
                        () -> readField(db, "g.2.arrive.0"),
                        v -> v != null);
                Future<Long> s1 = pool.submit(b1::await);
                long start1 = s1.get();
                long start0 = s0.get();
                assertTrue(dropped.get(), "the first write of the start instant was lost");
                assertEquals(start0, start1, "one start instant");
                assertEquals(b0.facts().get("commonStartMs"), b1.facts().get("commonStartMs"));
                assertNull(readField(db, "g.2.arrive.0"), "deleted once the start had passed");
                assertNull(readField(db, "g.2.arrive.1"), "deleted once the start had passed");
            } finally {
                pool.shutdownNow();
            }
        }
    }

    @Test
    void aTargetThatCannotReadItsClockLeavesTheOffsetUnmeasured() throws Exception {
        try (Target db = memory("barrier-noclock")) {
            StartBarrier b = new StartBarrier(db, new Shard(0, 1), "g", 60_000);
            long start = b.await();
            Map<String, Object> f = b.facts();
            assertTrue(f.containsKey("serverClockOffsetMs"));
            assertNull(f.get("serverClockOffsetMs"));
            assertNull(f.get("offsetBoundMs"));
            assertEquals(0L, f.get("startCorrectionMs"));
            assertEquals(start, (long) f.get("commonStartMs"));
        }
    }

    @Test
    void anEmbeddedDatabaseIsOnThisHostsClock(@TempDir Path dir) throws Exception {
        TargetConfig sqlite = TargetKinds.resolve(new TargetConfig(
                "SQLITE", null, "jdbc:sqlite:" + dir.resolve("b.db"), null, null, null, false, Map.of()));
        try (Target db = Targets.open(sqlite)) {
            StartBarrier b = new StartBarrier(db, new Shard(0, 1), "g", 60_000);
            b.await();
            Map<String, Object> f = b.facts();
            assertEquals("embedded", f.get("serverClock"));
            assertEquals(0.0, f.get("serverClockOffsetMs"));
            assertEquals(0.0, f.get("offsetBoundMs"));
            assertEquals(0L, f.get("startCorrectionMs"));
        }
    }

    /** Reads one row of the barrier table as a session sees it (a session of {@code s}'s target). */
    interface Reads {
        OpResult read(Session s, String table, String key, List<String> fields, Map<String, String> out)
                throws TargetException;
    }

    /** Writes one row (update, or insert when {@code insert}) through a session {@code s}. */
    interface Writes {
        OpResult write(Session s, String table, String key, Map<String, String> values, boolean insert)
                throws TargetException;
    }

    /** {@code t} with its sessions' reads and/or writes (null: unchanged) passed through the given hooks. */
    private static Target intercepted(Target t, Reads reads, Writes writes) {
        return new ForwardingTarget(t) {
            @Override
            public Session openSession() throws TargetException {
                Session s = t.openSession();
                return new Session() {
                    @Override
                    public OpResult read(String table, String key, List<String> fields, Map<String, String> out)
                            throws TargetException {
                        return reads == null ? s.read(table, key, fields, out) : reads.read(s, table, key, fields, out);
                    }

                    @Override
                    public OpResult scan(
                            String table,
                            String startKey,
                            int count,
                            List<String> fields,
                            List<Map<String, String>> out)
                            throws TargetException {
                        return s.scan(table, startKey, count, fields, out);
                    }

                    @Override
                    public OpResult update(String table, String key, Map<String, String> values)
                            throws TargetException {
                        return writes == null
                                ? s.update(table, key, values)
                                : writes.write(s, table, key, values, false);
                    }

                    @Override
                    public OpResult insert(String table, String key, Map<String, String> values)
                            throws TargetException {
                        return writes == null
                                ? s.insert(table, key, values)
                                : writes.write(s, table, key, values, true);
                    }

                    @Override
                    public OpResult delete(String table, String key) throws TargetException {
                        return s.delete(table, key);
                    }

                    @Override
                    public OpResult extend(
                            String table, String key, String field, String suffix, long maxLength, ExtendMethod method)
                            throws TargetException {
                        return s.extend(table, key, field, suffix, maxLength, method);
                    }

                    @Override
                    public void insertBatch(String table, List<Record> records) throws TargetException {
                        s.insertBatch(table, records);
                    }

                    @Override
                    public void close() {
                        s.close();
                    }
                };
            }

            @Override
            public void close() {}
        };
    }

    /** The barrier row's value, or null when the row is absent. */
    private static String readField(Target db, String key) {
        try (Session s = db.openSession()) {
            Map<String, String> out = new HashMap<>();
            OpResult r = s.read(StartBarrier.TABLE, key, List.of("instant_ms"), out);
            return r.isOk() ? out.get("instant_ms") : null;
        } catch (TargetException e) {
            return null; // the table is not there yet
        }
    }

    /** A clock that reads the scripted server times, with the given resolution in microseconds. */
    private static ServerClock scripted(Deque<Long> serverMicros, long resolutionMicros) {
        return new ServerClock() {
            @Override
            public String source() {
                return "scripted";
            }

            @Override
            public long resolutionMicros() {
                return resolutionMicros;
            }

            @Override
            public Reader open() {
                return new Reader() {
                    @Override
                    public long nowMicros() {
                        return serverMicros.pop();
                    }

                    @Override
                    public void close() {}
                };
            }
        };
    }

    /** The in-memory database with a server clock that is this host's real one. */
    private static Target withRealClock(Target t) {
        ServerClock real = new ServerClock() {
            @Override
            public String source() {
                return "scripted";
            }

            @Override
            public long resolutionMicros() {
                return 1;
            }

            @Override
            public Reader open() {
                return new Reader() {
                    @Override
                    public long nowMicros() {
                        return ClockOffset.wallNanos() / 1000;
                    }

                    @Override
                    public void close() {}
                };
            }
        };
        return new ForwardingTarget(t) {
            @Override
            public <T> Optional<T> capability(Class<T> type) {
                return type == ServerClock.class ? Optional.of(type.cast(real)) : t.capability(type);
            }

            @Override
            public void close() {}
        };
    }
}
