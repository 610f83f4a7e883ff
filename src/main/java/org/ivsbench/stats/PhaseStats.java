package org.ivsbench.stats;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.WriterReaderPhaser;

import org.ivsbench.op.Outcome;

/**
 * The statistics of one phase. Terminals record into it concurrently (wait-free: HdrHistogram's
 * writer-reader phaser); one collector thread drains the interval's histograms per window and accumulates the
 * phase totals, so memory does not grow with the length of the run. One phaser guards all of an interval's
 * histograms, so an operation's response time, service time and start lag always land in the same window
 * (with a recorder each, an operation recorded while the collector swapped them could be split across two).
 *
 * <p>Only measured operations enter the histograms: warmup operations are counted and nothing else.
 */
public final class PhaseStats {
    /** Distinct error reasons kept per transaction type; the rest are counted under "other". */
    static final int MAX_REASONS = 20;

    private static final int DIGITS = 3;
    private static final int OUTCOMES = Outcome.values().length;

    private final int index;
    private final String name;
    private final List<String> types;

    private final WriterReaderPhaser phaser = new WriterReaderPhaser();
    private volatile Interval active;
    private final Histogram totalStartLag = new Histogram(DIGITS);
    private final Histogram totalMissedLateness = new Histogram(DIGITS);
    private final LongAdder[] bytesRead;
    private final LongAdder[] bytesWritten;
    private final Map<String, LongAdder>[] reasons;
    private final LongAdder warmupOperations = new LongAdder();
    private final LongAdder missedTotal = new LongAdder();
    private final LongAdder missedWindow = new LongAdder();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final LongAdder completed = new LongAdder();
    /** Response times by the size of the value each operation touched: totals only, no windows. */
    private final SizeLatency bySize;

    private volatile Window lastWindow;
    /** Told of every operation recorded here (the metrics endpoint); {@link OperationListener.PhaseListener#NONE}. */
    private final OperationListener.PhaseListener listener;

    // Owned by the collector thread (guarded by this).
    private final Histogram[][] totalResponse;
    private final Histogram[] totalService;

    private volatile boolean started;
    private volatile long startMs;
    private volatile long measuredStartMs;
    private volatile long endMs;
    private volatile double measuredSeconds;
    private volatile boolean scheduleEnded;

    public PhaseStats(int index, String name, List<String> types) {
        this(index, name, types, OperationListener.PhaseListener.NONE);
    }

    /** A phase whose operations are also reported to {@code listener}, as they are recorded. */
    @SuppressWarnings("unchecked")
    public PhaseStats(int index, String name, List<String> types, OperationListener.PhaseListener listener) {
        this.listener = listener;
        this.index = index;
        this.name = name;
        this.types = List.copyOf(types);
        int n = types.size();
        active = new Interval(n);
        bySize = new SizeLatency(types);
        bytesRead = new LongAdder[n];
        bytesWritten = new LongAdder[n];
        reasons = new Map[n];
        totalResponse = new Histogram[n][OUTCOMES];
        totalService = new Histogram[n];
        for (int t = 0; t < n; t++) {
            for (int o = 0; o < OUTCOMES; o++) {
                totalResponse[t][o] = new Histogram(DIGITS);
            }
            totalService[t] = new Histogram(DIGITS);
            bytesRead[t] = new LongAdder();
            bytesWritten[t] = new LongAdder();
            reasons[t] = new ConcurrentHashMap<>();
        }
    }

    /** One window's histograms, written by the terminals until the collector swaps in a new one. */
    private static final class Interval {
        final Histogram[][] response; // [type][outcome], microseconds from intended start
        final Histogram[] service; // [type], microseconds from actual start
        final Histogram startLag = new ConcurrentHistogram(DIGITS); // actual - intended start, microseconds
        final Histogram missedLateness = new ConcurrentHistogram(DIGITS); // given up - intended start, µs

        Interval(int types) {
            response = new Histogram[types][OUTCOMES];
            service = new Histogram[types];
            for (int t = 0; t < types; t++) {
                for (int o = 0; o < OUTCOMES; o++) {
                    response[t][o] = new ConcurrentHistogram(DIGITS);
                }
                service[t] = new ConcurrentHistogram(DIGITS);
            }
        }
    }

    public int index() {
        return index;
    }

    public String name() {
        return name;
    }

    public List<String> types() {
        return types;
    }

    /** Records one measured operation of unknown size. Times are nanoseconds. */
    public void record(
            int type, Outcome outcome, long responseNanos, long serviceNanos, long read, long written, String reason) {
        record(type, outcome, responseNanos, serviceNanos, read, written, reason, -1);
    }

    /**
     * Records one measured operation. Times are nanoseconds; {@code sizeBytes} is the size of the value it touched
     * (negative: unknown), the key of its response time in {@link #latencyBySize()}.
     */
    public void record(
            int type,
            Outcome outcome,
            long responseNanos,
            long serviceNanos,
            long read,
            long written,
            String reason,
            long sizeBytes) {
        long token = phaser.writerCriticalSectionEnter();
        try {
            Interval interval = active;
            interval.response[type][outcome.ordinal()].recordValue(Math.max(0, responseNanos) / 1000);
            interval.service[type].recordValue(Math.max(0, serviceNanos) / 1000);
            interval.startLag.recordValue(Math.max(0, responseNanos - serviceNanos) / 1000);
        } finally {
            phaser.writerCriticalSectionExit(token);
        }
        bySize.record(type, sizeBytes, Math.max(0, responseNanos) / 1000);
        completed.increment();
        listener.recorded(type, outcome, responseNanos);
        if (read > 0) {
            bytesRead[type].add(read);
        }
        if (written > 0) {
            bytesWritten[type].add(written);
        }
        if (outcome != Outcome.OK && reason != null) {
            Map<String, LongAdder> m = reasons[type];
            LongAdder counter = m.get(reason);
            if (counter == null) {
                String key = m.size() >= MAX_REASONS ? "other" : reason;
                counter = m.computeIfAbsent(key, k -> new LongAdder());
            }
            counter.increment();
        }
    }

    public void recordWarmup() {
        warmupOperations.increment();
        listener.warmup();
    }

    /**
     * Records one measured arrival given up as missed, {@code latenessNanos} after its intended start: the
     * lateness shows the overload that the response times of the arrivals that ran are bounded from.
     */
    public void recordMissed(long latenessNanos) {
        long token = phaser.writerCriticalSectionEnter();
        try {
            active.missedLateness.recordValue(Math.max(0, latenessNanos) / 1000);
        } finally {
            phaser.writerCriticalSectionExit(token);
        }
        missedTotal.increment();
        missedWindow.increment();
        listener.missed();
    }

    /** Marks an operation of this phase as started; pair with {@link #operationDone()}. */
    public void operationStarted() {
        inFlight.incrementAndGet();
    }

    public void operationDone() {
        inFlight.decrementAndGet();
    }

    /** True when the phase schedules nothing more and no operation of it is still running. */
    public int inFlight() {
        return inFlight.get();
    }

    public boolean isSettled() {
        return scheduleEnded && inFlight.get() == 0;
    }

    public void markStarted(long startMs, long measuredStartMs) {
        this.startMs = startMs;
        this.measuredStartMs = measuredStartMs;
        this.started = true;
    }

    /** The phase schedules no more operations; {@code measuredSeconds} is the throughput denominator. */
    public void markScheduleEnded(long endMs, double measuredSeconds) {
        this.endMs = endMs;
        this.measuredSeconds = measuredSeconds;
        this.scheduleEnded = true;
    }

    /**
     * Moves what was recorded since the last call into the totals and returns it as one window.
     * Called by the collector thread only.
     */
    public synchronized Window drain(long windowStartMs, long windowMs) {
        int n = types.size();
        Interval done;
        phaser.readerLock();
        try {
            done = active;
            active = new Interval(n);
            phaser.flipPhase(); // returns once every record() that could still see `done` has finished
        } finally {
            phaser.readerUnlock();
        }
        Window.TypeRow[] rows = new Window.TypeRow[n];
        for (int t = 0; t < n; t++) {
            long[] counts = new long[OUTCOMES];
            Histogram all = new Histogram(DIGITS);
            for (int o = 0; o < OUTCOMES; o++) {
                Histogram interval = done.response[t][o];
                counts[o] = interval.getTotalCount();
                if (counts[o] > 0) {
                    totalResponse[t][o].add(interval);
                    all.add(interval);
                }
            }
            Histogram svc = done.service[t];
            totalService[t].add(svc);
            rows[t] = new Window.TypeRow(types.get(t), OperationCounts.of(counts), all, svc);
        }
        totalStartLag.add(done.startLag);
        totalMissedLateness.add(done.missedLateness);
        Window w = new Window(
                index,
                windowStartMs,
                windowMs,
                measuredMs(windowStartMs, windowStartMs + windowMs),
                rows,
                missedWindow.sumThenReset(),
                done.missedLateness);
        lastWindow = w;
        return w;
    }

    /** How much of [fromMs, toMs) lies between the end of the phase's warmup and the end of its schedule. */
    long measuredMs(long fromMs, long toMs) {
        if (!started) {
            return 0;
        }
        long end = scheduleEnded ? endMs : Long.MAX_VALUE;
        return Math.max(0, Math.min(toMs, end) - Math.max(fromMs, measuredStartMs));
    }

    /** When the phase's measured part began (after its warmup), epoch ms; where a ramp starts. */
    public long measuredStartMs() {
        return measuredStartMs;
    }

    /** When the phase (its warmup) began, epoch ms. */
    public long summaryStartMs() {
        return startMs;
    }

    /** Measured operations completed so far (for progress output). */
    public long completed() {
        return completed.sum();
    }

    public long missed() {
        return missedTotal.sum();
    }

    /** The most recent window drained, or null (for progress output). */
    public Window lastWindow() {
        return lastWindow;
    }

    /**
     * Copies of the phase's totals that latency.hlog does not hold, by tag: {@code <TYPE>.service} per type,
     * {@code startLag} and {@code missedLateness} (microseconds); what a merge needs to add shards exactly.
     */
    public synchronized Map<String, Histogram> totalHistograms() {
        Map<String, Histogram> m = new LinkedHashMap<>();
        for (int t = 0; t < types.size(); t++) {
            m.put(types.get(t) + ".service", totalService[t].copy());
        }
        m.put("startLag", totalStartLag.copy());
        m.put("missedLateness", totalMissedLateness.copy());
        return m;
    }

    /**
     * One phase made of {@code parts} run one after another (an experiment's run phase in slices,
     * docs/experiments.md): every total added - counts, histograms, bytes, error reasons, warmup operations,
     * missed arrivals, response times by size - and the measured seconds summed, so throughput is operations per
     * second measured, not per wall-clock span. The parts must be of one phase config (same name and types) and
     * finished; the result records nothing more.
     */
    public static PhaseStats inSequence(List<PhaseStats> parts) {
        if (parts.isEmpty()) {
            throw new IllegalArgumentException("no parts");
        }
        PhaseStats first = parts.get(0);
        PhaseStats sum = new PhaseStats(first.index, first.name, first.types);
        double seconds = 0;
        long endMs = 0;
        for (PhaseStats p : parts) {
            if (!p.types.equals(first.types) || !p.name.equals(first.name)) {
                throw new IllegalArgumentException(
                        "parts of other phases: " + first.name + " " + first.types + " and " + p.name + " " + p.types);
            }
            sum.add(p);
            seconds += p.measuredSeconds;
            endMs = Math.max(endMs, p.endMs);
        }
        sum.markStarted(first.startMs, first.measuredStartMs);
        sum.markScheduleEnded(endMs, seconds);
        return sum;
    }

    private void add(PhaseStats p) {
        synchronized (p) {
            synchronized (this) {
                for (int t = 0; t < types.size(); t++) {
                    for (int o = 0; o < OUTCOMES; o++) {
                        totalResponse[t][o].add(p.totalResponse[t][o]);
                    }
                    totalService[t].add(p.totalService[t]);
                    bytesRead[t].add(p.bytesRead[t].sum());
                    bytesWritten[t].add(p.bytesWritten[t].sum());
                    Map<String, LongAdder> mine = reasons[t];
                    p.reasons[t].forEach((reason, n) -> {
                        String key = mine.containsKey(reason) || mine.size() < MAX_REASONS ? reason : "other";
                        mine.computeIfAbsent(key, k -> new LongAdder()).add(n.sum());
                    });
                }
                totalStartLag.add(p.totalStartLag);
                totalMissedLateness.add(p.totalMissedLateness);
                warmupOperations.add(p.warmupOperations.sum());
                missedTotal.add(p.missedTotal.sum());
                completed.add(p.completed.sum());
                bySize.add(p.bySize);
            }
        }
    }

    /** The phase's response times by size so far (latency_by_size.csv); safe while operations are recorded. */
    public List<SizeLatency.Row> latencyBySize() {
        return bySize.rows();
    }

    /** The phase's figures so far (call after a final drain for the complete ones). */
    public synchronized PhaseSummary summary() {
        double seconds = measuredSeconds > 0
                ? measuredSeconds
                : Math.max(0, (System.currentTimeMillis() - measuredStartMs) / 1000.0);
        int n = types.size();
        Map<String, PhaseSummary.TypeSummary> byType = new LinkedHashMap<>();
        Histogram allResponse = new Histogram(DIGITS);
        Histogram allService = new Histogram(DIGITS);
        OperationCounts allCounts = new OperationCounts(0, 0, 0, 0);
        long allRead = 0;
        long allWritten = 0;
        for (int t = 0; t < n; t++) {
            long[] counts = new long[OUTCOMES];
            Histogram typeResponse = new Histogram(DIGITS);
            for (int o = 0; o < OUTCOMES; o++) {
                counts[o] = totalResponse[t][o].getTotalCount();
                typeResponse.add(totalResponse[t][o]);
            }
            OperationCounts c = OperationCounts.of(counts);
            Map<String, Long> errors = new TreeMap<>();
            reasons[t].forEach((k, v) -> errors.put(k, v.sum()));
            byType.put(
                    types.get(t),
                    new PhaseSummary.TypeSummary(
                            c,
                            rate(c.total(), seconds),
                            rate(c.ok(), seconds),
                            LatencySummary.of(typeResponse),
                            LatencySummary.of(totalService[t]),
                            bytesRead[t].sum(),
                            bytesWritten[t].sum(),
                            errors));
            allResponse.add(typeResponse);
            allService.add(totalService[t]);
            allCounts = allCounts.plus(c);
            allRead += bytesRead[t].sum();
            allWritten += bytesWritten[t].sum();
        }
        return new PhaseSummary(
                index,
                name,
                startMs,
                measuredStartMs,
                endMs,
                seconds,
                warmupOperations.sum(),
                missedTotal.sum(),
                allCounts,
                rate(allCounts.total(), seconds),
                rate(allCounts.ok(), seconds),
                LatencySummary.of(allResponse),
                LatencySummary.of(allService),
                LatencySummary.of(totalStartLag),
                LatencySummary.of(totalMissedLateness),
                allRead,
                allWritten,
                byType);
    }

    private static Double rate(long count, double seconds) {
        return seconds > 0 ? count / seconds : null;
    }
}
