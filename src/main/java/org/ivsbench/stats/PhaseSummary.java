package org.ivsbench.stats;

import java.util.Map;

/** The figures of one phase as summary.json reports them (see docs/results-format.md). */
public record PhaseSummary(
        int index,
        String name,
        long startMs,
        long measuredStartMs,
        long endMs,
        double measuredSeconds,
        long warmupOperations,
        long missed,
        OperationCounts counts,
        Double throughput,
        Double goodput,
        LatencySummary responseTimeUs,
        LatencySummary serviceTimeUs,
        LatencySummary startLagUs,
        LatencySummary missedLatenessUs,
        long bytesRead,
        long bytesWritten,
        Map<String, TypeSummary> transactions) {

    /** A phase without missed arrivals' lateness (callers that build summaries by hand, e.g. tests). */
    public PhaseSummary(
            int index,
            String name,
            long startMs,
            long measuredStartMs,
            long endMs,
            double measuredSeconds,
            long warmupOperations,
            long missed,
            OperationCounts counts,
            Double throughput,
            Double goodput,
            LatencySummary responseTimeUs,
            LatencySummary serviceTimeUs,
            LatencySummary startLagUs,
            long bytesRead,
            long bytesWritten,
            Map<String, TypeSummary> transactions) {
        this(
                index,
                name,
                startMs,
                measuredStartMs,
                endMs,
                measuredSeconds,
                warmupOperations,
                missed,
                counts,
                throughput,
                goodput,
                responseTimeUs,
                serviceTimeUs,
                startLagUs,
                LatencySummary.empty(),
                bytesRead,
                bytesWritten,
                transactions);
    }

    public record TypeSummary(
            OperationCounts counts,
            Double throughput,
            Double goodput,
            LatencySummary responseTimeUs,
            LatencySummary serviceTimeUs,
            long bytesRead,
            long bytesWritten,
            Map<String, Long> errors) {}
}
