package org.ivsbench.cli;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

import org.ivsbench.stats.LatencySummary;
import org.ivsbench.stats.PhaseSummary;

/** The final per-phase table printed after a run. Response times in milliseconds. */
final class SummaryTable {
    private SummaryTable() {
    }

    static void print(PrintStream out, List<PhaseSummary> phases) {
        out.println();
        out.println(String.format(Locale.ROOT, "%-14s %8s %10s %10s %10s %8s %8s %9s %9s %9s %9s", "phase", "seconds",
                "ops", "ops/s", "goodput", "missed", "skipped", "errors", "p50 ms", "p99 ms", "max ms"));
        for (PhaseSummary p : phases) {
            print(out, p.name(), p.measuredSeconds(), p, p.responseTimeUs());
            p.transactions().forEach((type, t) -> {
                if (t.counts().total() > 0) {
                    out.println(String.format(Locale.ROOT, "  %-12s %8s %10d %10s %10s %8s %8d %9d %9s %9s %9s", type, "",
                            t.counts().total(), fmt(t.throughput()), fmt(t.goodput()), "", t.counts().skipped(),
                            t.counts().error() + t.counts().aborted(), ms(t.responseTimeUs().p50()),
                            ms(t.responseTimeUs().p99()), ms(t.responseTimeUs().max())));
                }
            });
        }
    }

    private static void print(PrintStream out, String name, double seconds, PhaseSummary p, LatencySummary l) {
        out.println(String.format(Locale.ROOT, "%-14s %8.1f %10d %10s %10s %8d %8d %9d %9s %9s %9s", name, seconds,
                p.counts().total(), fmt(p.throughput()), fmt(p.goodput()), p.missed(), p.counts().skipped(),
                p.counts().error() + p.counts().aborted(), ms(l.p50()), ms(l.p99()), ms(l.max())));
    }

    private static String fmt(Double v) {
        return v == null ? "-" : String.format(Locale.ROOT, "%.1f", v);
    }

    private static String ms(Long us) {
        return us == null ? "-" : String.format(Locale.ROOT, "%.3f", us / 1000.0);
    }
}
