package org.ivsbench.mode;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import org.ivsbench.stats.LatencySummary;
import org.ivsbench.stats.PhaseSummary;

/**
 * sweep.csv: one row per finished point, flushed as it is written so an interrupted sweep keeps its rows.
 * {@code runtime_ms} is the measured phase's measured time (from its measured start to the completion that
 * reached its count, for a count phase), the same span as summary.json's phase {@code endMs - measuredStartMs}.
 */
public final class SweepCsv implements AutoCloseable {
    public static final String HEADER = "target_type,benchmark,phase,terminals,count,trial,runtime_ms,operations,"
            + "throughput,goodput,latency_p50_us,latency_p95_us,latency_p99_us,missed,aborted,errors,interrupted,folder";

    private final BufferedWriter out;

    SweepCsv(Path file) throws IOException {
        out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
        out.write(HEADER);
        out.newLine();
        out.flush();
    }

    void row(
            String targetType,
            String benchmark,
            SweepPoints.Point point,
            PhaseSummary p,
            boolean interrupted,
            String folder)
            throws IOException {
        LatencySummary rt = p.responseTimeUs();
        List<String> cells = List.of(
                targetType,
                benchmark,
                p.name(),
                Integer.toString(point.terminals()),
                point.count() == null ? "" : Long.toString(point.count()),
                Integer.toString(point.trial()),
                decimal(p.measuredSeconds() * 1000),
                Long.toString(p.counts().total()),
                decimal(p.throughput()),
                decimal(p.goodput()),
                whole(rt.p50()),
                whole(rt.p95()),
                whole(rt.p99()),
                Long.toString(p.missed()),
                Long.toString(p.counts().aborted()),
                Long.toString(p.counts().error()),
                Boolean.toString(interrupted),
                folder);
        out.write(String.join(",", cells));
        out.newLine();
        out.flush();
    }

    private static String decimal(Double value) {
        return value == null ? "" : String.format(Locale.ROOT, "%.3f", value);
    }

    private static String whole(Long value) {
        return value == null ? "" : Long.toString(value);
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
