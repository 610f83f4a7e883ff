package org.ivsbench.stats;

import org.HdrHistogram.Histogram;

/** What one phase recorded in one window, per transaction type (histograms in microseconds). */
public record Window(int phase, long startMs, long windowMs, TypeRow[] rows, long missed) {

    public record TypeRow(String type, OperationCounts counts, Histogram response, Histogram service) {
    }
}
