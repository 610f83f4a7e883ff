package org.ivsbench.stats;

import org.HdrHistogram.Histogram;

/**
 * What one phase recorded in one window, per transaction type (histograms in microseconds). {@code measuredMs}
 * is the part of the window in which the phase was measured (after its warmup, up to the end of its schedule):
 * less than {@code windowMs} in a phase's first and last windows, 0 in a window of warmup only or of operations
 * that were still in flight after the end. {@code missedLateness}: how late each arrival missed in the window
 * was when it was given up (µs).
 */
public record Window(
        int phase,
        long startMs,
        long windowMs,
        long measuredMs,
        TypeRow[] rows,
        long missed,
        Histogram missedLateness) {

    public record TypeRow(String type, OperationCounts counts, Histogram response, Histogram service) {}
}
