package org.ivsbench.bench;

/** Receives loader progress (thread-safe): records and bytes loaded so far out of the total. */
public interface LoadProgress {
    void loaded(long records, long bytes);

    /** Called once before loading starts, when the loader knows how many records it will write. */
    default void starting(long totalRecords) {}

    LoadProgress NONE = (records, bytes) -> {};
}
