package org.ivsbench.stats;

import org.HdrHistogram.Histogram;

/** Latency figures in microseconds over one histogram; every field null when it holds no value. */
public record LatencySummary(Double avg, Double stddev, Long p50, Long p90, Long p95, Long p99, Long p999, Long max) {

    private static final LatencySummary EMPTY = new LatencySummary(null, null, null, null, null, null, null, null);

    /** The summary of no values: every field null. */
    public static LatencySummary empty() {
        return EMPTY;
    }

    public static LatencySummary of(Histogram h) {
        if (h.getTotalCount() == 0) {
            return EMPTY;
        }
        return new LatencySummary(
                h.getMean(),
                h.getStdDeviation(),
                h.getValueAtPercentile(50),
                h.getValueAtPercentile(90),
                h.getValueAtPercentile(95),
                h.getValueAtPercentile(99),
                h.getValueAtPercentile(99.9),
                h.getMaxValue());
    }
}
