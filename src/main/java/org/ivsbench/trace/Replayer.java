package org.ivsbench.trace;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;

import org.HdrHistogram.Histogram;

import org.ivsbench.db.ExtendMethod;
import org.ivsbench.db.Session;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;
import org.ivsbench.op.OpResult;

/**
 * Re-executes a trace: one thread and one session per recorded terminal, each running its terminal's record
 * operations in sequence order, either at their recorded start offsets (open loop: a late operation is not
 * skipped, it runs as soon as it can and its lateness is measured) or back to back. Hashes every read's result
 * the way the recording did.
 */
public final class Replayer {
    /** How operations are spaced in time. */
    public enum Timing {
        RECORDED,
        FAST
    }

    private final Target target;
    private final Timing timing;
    private final int threads;

    /** {@code threads} 0: one per recorded terminal; fewer: recorded terminals share threads round-robin. */
    public Replayer(Target target, Timing timing, int threads) {
        this.target = target;
        this.timing = timing;
        this.threads = threads;
    }

    /**
     * The record streams the threads run. A recorded terminal is never split (its order is what makes the reads
     * comparable); terminals that share a thread are merged by start offset, each keeping its own order.
     */
    static List<List<TraceRecord>> streams(Map<Integer, List<TraceRecord>> byTerminal, int threads) {
        int n = threads <= 0 ? byTerminal.size() : Math.min(threads, byTerminal.size());
        List<List<TraceRecord>> streams = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            streams.add(new ArrayList<>());
        }
        int i = 0;
        for (List<TraceRecord> rs : byTerminal.values()) {
            streams.get(i++ % n).addAll(rs);
        }
        Comparator<TraceRecord> order = Comparator.comparingLong(TraceRecord::offsetNanos)
                .thenComparingInt(TraceRecord::terminal)
                .thenComparingLong(TraceRecord::seq);
        streams.forEach(s -> s.sort(order));
        return streams;
    }

    public ReplayResult run(Trace trace) throws InterruptedException {
        long minOffset = Long.MAX_VALUE;
        for (List<TraceRecord> rs : trace.byTerminal().values()) {
            if (!rs.isEmpty()) {
                minOffset = Math.min(minOffset, rs.get(0).offsetNanos());
            }
        }
        long base = System.nanoTime() + 10_000_000L - (minOffset == Long.MAX_VALUE ? 0 : minOffset);
        Map<Integer, TerminalReplay> done = new ConcurrentHashMap<>();
        List<Thread> running = new ArrayList<>();
        List<List<TraceRecord>> streams = streams(trace.byTerminal(), threads);
        for (int i = 0; i < streams.size(); i++) {
            TerminalReplay replay = new TerminalReplay(streams.get(i), base);
            int index = i;
            Thread t = new Thread(
                    () -> {
                        replay.run();
                        done.put(index, replay);
                    },
                    "replay-" + i);
            running.add(t);
            t.start();
        }
        try {
            for (Thread t : running) {
                t.join();
            }
        } catch (InterruptedException e) {
            running.forEach(Thread::interrupt);
            throw e;
        }
        return ReplayResult.of(
                trace, new TreeMap<>(done).values().stream().map(r -> r.result).toList(), timing);
    }

    /** What one replay thread saw; digests by recorded terminal. */
    record TerminalResult(
            List<ReplayResult.Read> reads,
            Map<Integer, String> digests,
            Map<Integer, Histogram> lateness,
            Map<String, Histogram> latency,
            Map<String, Long> outcomes,
            String failure) {}

    private final class TerminalReplay {
        private final List<TraceRecord> records;
        private final long base;
        private TerminalResult result;

        TerminalReplay(List<TraceRecord> records, long base) {
            this.records = records;
            this.base = base;
        }

        void run() {
            List<ReplayResult.Read> reads = new ArrayList<>();
            Map<Integer, ResultDigest> digests = new TreeMap<>();
            records.forEach(r -> digests.computeIfAbsent(r.terminal(), t -> new ResultDigest()));
            Map<Integer, Histogram> lateness = new TreeMap<>();
            Map<String, Histogram> latency = new LinkedHashMap<>();
            Map<String, Long> outcomes = new TreeMap<>();
            String failure = null;
            Session session = null;
            long lastOffset = Long.MIN_VALUE;
            try {
                session = target.openSession();
                for (TraceRecord r : records) {
                    if (timing == Timing.RECORDED && r.offsetNanos() != lastOffset) {
                        // Several record operations of one benchmark operation share its offset: only the
                        // first waits, the others follow it as they did in the recorded run.
                        long intended = base + r.offsetNanos();
                        long now;
                        while ((now = System.nanoTime()) < intended) {
                            LockSupport.parkNanos(intended - now);
                        }
                        lateness.computeIfAbsent(r.phase(), k -> new Histogram(3))
                                .recordValue(now - intended);
                    }
                    lastOffset = r.offsetNanos();
                    long start = System.nanoTime();
                    Map<String, String> one = new HashMap<>();
                    List<Map<String, String>> many = new ArrayList<>();
                    OpResult res;
                    try {
                        res = execute(session, r, one, many);
                    } catch (TargetException e) {
                        res = null;
                    }
                    latency.computeIfAbsent(r.op().code(), k -> new Histogram(3))
                            .recordValue(Math.max(0, System.nanoTime() - start));
                    String outcome = res == null ? "ERROR" : res.outcome().name();
                    outcomes.merge(r.op().code() + " " + outcome, 1L, Long::sum);
                    if (r.op().isRead()) {
                        String hash = res == null
                                ? "error"
                                : r.op() == TraceOp.READ
                                        ? ResultDigest.ofRead(res, one)
                                        : ResultDigest.ofScan(res, many);
                        digests.get(r.terminal()).add(r.seq(), hash);
                        reads.add(new ReplayResult.Read(
                                r.terminal(), r.seq(), r.offsetNanos(), r.op().code(), r.key(), r.hash(), hash));
                    }
                }
            } catch (TargetException e) {
                failure = "terminals " + digests.keySet() + ": cannot open a session: " + e.getMessage();
            } finally {
                if (session != null) {
                    session.close();
                }
            }
            Map<Integer, String> terminalDigests = new TreeMap<>();
            digests.forEach((t, d) -> terminalDigests.put(t, d.terminalDigest()));
            result = new TerminalResult(reads, terminalDigests, lateness, latency, outcomes, failure);
        }

        private OpResult execute(Session s, TraceRecord r, Map<String, String> one, List<Map<String, String>> many)
                throws TargetException {
            return switch (r.op()) {
                case READ -> s.read(r.table(), r.key(), r.fields(), one);
                case SCAN -> s.scan(r.table(), r.key(), r.count(), r.fields(), many);
                case SCAN_BETWEEN -> s.scanBetween(r.table(), r.key(), r.end(), r.fields(), many);
                case UPDATE -> s.update(r.table(), r.key(), r.values());
                case INSERT -> s.insert(r.table(), r.key(), r.values());
                case DELETE -> s.delete(r.table(), r.key());
                case DELETE_RANGE -> s.deleteRange(r.table(), r.key(), r.count(), rows -> {});
                case DELETE_BETWEEN -> s.deleteBetween(r.table(), r.key(), r.end(), rows -> {});
                case EXTEND ->
                    s.extend(r.table(), r.key(), r.field(), r.suffix(), r.max(), ExtendMethod.valueOf(r.method()));
            };
        }
    }
}
