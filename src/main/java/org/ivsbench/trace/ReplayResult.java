package org.ivsbench.trace;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import org.HdrHistogram.Histogram;

/**
 * The outcome of a replay: every read's recorded and replayed hash, the digests, the start lateness (recorded
 * timing) and per-operation latencies and outcomes.
 */
public final class ReplayResult {
    /** One read or scan: where it was in the trace and both hashes. */
    public record Read(
            int terminal, long seq, long offsetNanos, String op, String key, String recorded, String replayed) {
        /** A read with no recorded hash (a generated trace) is not compared. */
        boolean differs() {
            return recorded != null && !replayed.equals(recorded);
        }
    }

    private final Trace trace;
    private final List<Replayer.TerminalResult> terminals;
    private final Replayer.Timing timing;
    private final String digest;

    private ReplayResult(Trace trace, List<Replayer.TerminalResult> terminals, Replayer.Timing timing, String digest) {
        this.trace = trace;
        this.terminals = terminals;
        this.timing = timing;
        this.digest = digest;
    }

    static ReplayResult of(Trace trace, List<Replayer.TerminalResult> terminals, Replayer.Timing timing) {
        Map<Integer, String> digests = new TreeMap<>();
        terminals.forEach(t -> digests.putAll(t.digests()));
        return new ReplayResult(trace, terminals, timing, ResultDigest.total(digests));
    }

    public String digest() {
        return digest;
    }

    public String recordedDigest() {
        return trace.digest();
    }

    public boolean digestsEqual() {
        return digest.equals(trace.digest());
    }

    /**
     * Whether the reads were checked: false for a generated trace, whose reads carry no result digest (nothing
     * ran when it was written).
     */
    public boolean checked() {
        return !trace.header().generated();
    }

    /** The reads and scans replayed. */
    public long reads() {
        return terminals.stream().mapToLong(t -> t.reads().size()).sum();
    }

    /** Sessions that could not be opened (their terminals replayed nothing). */
    public List<String> failures() {
        return terminals.stream()
                .map(Replayer.TerminalResult::failure)
                .filter(f -> f != null)
                .toList();
    }

    /** The reads whose results differ, earliest recorded start first. */
    public List<Read> differences() {
        List<Read> d = new ArrayList<>();
        terminals.forEach(t -> t.reads().stream().filter(Read::differs).forEach(d::add));
        d.sort(Comparator.comparingLong(Read::offsetNanos)
                .thenComparingInt(Read::terminal)
                .thenComparingLong(Read::seq));
        return d;
    }

    /** Start lateness per phase over all terminals (recorded timing only; empty otherwise). */
    public Map<Integer, Histogram> lateness() {
        Map<Integer, Histogram> all = new TreeMap<>();
        terminals.forEach(t -> t.lateness().forEach((phase, h) -> all.computeIfAbsent(phase, k -> new Histogram(3))
                .add(h)));
        return all;
    }

    /** replay-digest.txt: one line per read or scan in (terminal, seq) order, then the digests. */
    public void writeDigest(Path file) throws IOException {
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
                PrintWriter p = new PrintWriter(w)) {
            p.println("# terminal seq op key replayed-hash recorded-hash");
            List<Read> all = new ArrayList<>();
            terminals.forEach(t -> all.addAll(t.reads()));
            all.sort(Comparator.comparingInt(Read::terminal).thenComparingLong(Read::seq));
            for (Read r : all) {
                p.println(r.terminal() + " " + r.seq() + " " + r.op() + " " + r.key() + " " + r.replayed() + " "
                        + (r.recorded() == null ? "-" : r.recorded()) + (r.differs() ? " DIFFERS" : ""));
            }
            p.println("digest " + digest);
            if (!checked()) {
                p.println("recorded-digest -");
                p.println("digests not checked (generated trace: its reads carry no result digest)");
                return;
            }
            p.println("recorded-digest " + trace.digest());
            p.println(digestsEqual() ? "digests equal" : "digests differ");
        }
    }

    /** replay-summary.txt: what ran, how long each operation kind took, and how late starts were. */
    public void writeSummary(Path file) throws IOException {
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
                PrintWriter p = new PrintWriter(w)) {
            p.println("timing " + timing.name().toLowerCase(Locale.ROOT));
            p.println("trace-format " + trace.header().format());
            p.println("trace-tool " + trace.header().tool());
            p.println("trace-config-digest " + trace.header().configDigest());
            p.println("trace-generated " + trace.header().generated());
            p.println("records " + trace.records());
            p.println("threads " + terminals.size());
            Map<String, Histogram> latency = new TreeMap<>();
            Map<String, Long> outcomes = new TreeMap<>();
            for (Replayer.TerminalResult t : terminals) {
                t.latency().forEach((op, h) -> latency.computeIfAbsent(op, k -> new Histogram(3))
                        .add(h));
                t.outcomes().forEach((k, v) -> outcomes.merge(k, v, Long::sum));
            }
            outcomes.forEach((k, v) -> p.println("outcome " + k + " " + v));
            latency.forEach((op, h) -> p.printf(
                    "latency_us %s count=%d p50=%.1f p99=%.1f max=%.1f%n",
                    op,
                    h.getTotalCount(),
                    h.getValueAtPercentile(50) / 1e3,
                    h.getValueAtPercentile(99) / 1e3,
                    h.getMaxValue() / 1e3));
            latenessLines().forEach(p::println);
        }
    }

    /**
     * How far actual starts fell behind the recorded offsets, per phase: in a phase recorded without a rate limit
     * the offsets are back to back, so any replay slower than the recording accumulates there; a paced phase shows
     * the replay's timing error.
     */
    public List<String> latenessLines() {
        if (timing != Replayer.Timing.RECORDED) {
            return List.of("start lateness: not measured (timing fast)");
        }
        List<String> lines = new ArrayList<>();
        lateness()
                .forEach((phase, h) -> lines.add(String.format(
                        Locale.ROOT,
                        "start lateness phase %d (actual -"
                                + " intended) over %d operations: p50=%.3f ms p99=%.3f ms max=%.3f ms",
                        phase,
                        h.getTotalCount(),
                        h.getValueAtPercentile(50) / 1e6,
                        h.getValueAtPercentile(99) / 1e6,
                        h.getMaxValue() / 1e6)));
        return lines;
    }
}
