package org.ivsbench.experiment;

import org.ivsbench.bench.ExperimentWorkload;

/**
 * What an epoch's baselines are built from: the primary's record count, its number of values and their bytes.
 * Measured on the primary after the extend phase ({@link #of}), or computed without running it
 * ({@link #computed}, experiment/baselines = computed).
 *
 * @param records    records of the primary (average-baseline loads as many)
 * @param values     values (fields) of those records
 * @param totalBytes bytes of all values: the data volume (spread-baseline loads it in records of the initial size)
 */
record BaselineVolume(long records, long values, long totalBytes) {

    static BaselineVolume of(ValueSizeStats s) {
        return new BaselineVolume(s.records(), s.values(), s.totalBytes());
    }

    /**
     * Epoch {@code epoch}'s volume without running its extends: the primary as loaded ({@code loaded}) plus what
     * the extend phases of epochs 1 to {@code epoch} add when none is skipped at the cap. That is main's volume
     * as long as no extend reaches the cap; extends add bytes, never records.
     */
    static BaselineVolume computed(ValueSizeStats loaded, ExperimentWorkload workload, int epoch) {
        long added = workload.extendedBytes(epoch)
                .orElseThrow(() -> new IllegalStateException("the workload cannot compute its extends' volume"));
        return new BaselineVolume(loaded.records(), loaded.values(), loaded.totalBytes() + added);
    }

    /** The average value size in bytes (0 without values). */
    double averageValueBytes() {
        return values == 0 ? 0 : (double) totalBytes / values;
    }
}
