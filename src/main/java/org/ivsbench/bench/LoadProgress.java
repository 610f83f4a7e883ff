package org.ivsbench.bench;

/** Receives loader progress (thread-safe): records and bytes loaded so far out of the total. */
public interface LoadProgress {
    void loaded(long records, long bytes);

    LoadProgress NONE = (records, bytes) -> { };
}
