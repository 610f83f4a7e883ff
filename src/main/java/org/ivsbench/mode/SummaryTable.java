package org.ivsbench.mode;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

import org.ivsbench.stats.LatencySummary;
import org.ivsbench.stats.OperationCounts;
import org.ivsbench.stats.PhaseSummary;

/**
 * The final per-phase table printed after a run. Response times in milliseconds. Aborted (not found, deadlock,
 * conflict: the workload's expected refusals) and errors (the database failed) are separate columns, since
 * they mean different things.
 */
final class SummaryTable {
    private static final String ROW = "%8s %10s %10s %10s %8s %8s %8s %8s %9s %9s %9s";

    private SummaryTable() {}

    static void print(PrintStream out, List<PhaseSummary> phases) {
        int width = 14;
        for (PhaseSummary p : phases) {
            width = Math.max(width, p.name().length());
            for (String type : p.transactions().keySet()) {
                width = Math.max(width, type.length() + 2);
            }
        }
        String name = "%-" + width + "s ";
        out.println();
        out.println(String.format(
                Locale.ROOT,
                name + ROW,
                "phase",
                "seconds",
                "ops",
                "ops/s",
                "goodput",
                "missed",
                "skipped",
                "aborted",
                "errors",
                "p50 ms",
                "p99 ms",
                "max ms"));
        for (PhaseSummary p : phases) {
            out.println(row(
                    name,
                    p.name(),
                    String.format(Locale.ROOT, "%.1f", p.measuredSeconds()),
                    p.counts(),
                    p.throughput(),
                    p.goodput(),
                    Long.toString(p.missed()),
                    p.responseTimeUs()));
            p.transactions().forEach((type, t) -> {
                if (t.counts().total() > 0) {
                    out.println(row(
                            name, "  " + type, "", t.counts(), t.throughput(), t.goodput(), "", t.responseTimeUs()));
                }
            });
        }
    }

    private static String row(
            String name,
            String label,
            String seconds,
            OperationCounts c,
            Double throughput,
            Double goodput,
            String missed,
            LatencySummary l) {
        return String.format(
                Locale.ROOT,
                name + ROW,
                label,
                seconds,
                c.total(),
                fmt(throughput),
                fmt(goodput),
                missed,
                c.skipped(),
                c.aborted(),
                c.error(),
                ms(l.p50()),
                ms(l.p99()),
                ms(l.max()));
    }

    private static String fmt(Double v) {
        return v == null ? "-" : String.format(Locale.ROOT, "%.1f", v);
    }

    private static String ms(Long us) {
        return us == null ? "-" : String.format(Locale.ROOT, "%.3f", us / 1000.0);
    }
}
