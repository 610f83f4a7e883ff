package org.ivsbench.run;

import org.ivsbench.stats.OperationListener;
import org.ivsbench.stats.RunInfo;

/**
 * A live view of an invocation's measured runs (the --metrics-listen endpoint): each mode tells it of every results
 * folder it measures into, and an experiment of the epoch it is at. {@link #NONE} when no endpoint was asked for.
 */
public interface LiveMetrics {
    LiveMetrics NONE = (runId, info) -> OperationListener.NONE;

    /**
     * A measured run into the folder {@code runId} (its path below the results folder's parent) starts; its
     * statistics report to the listener returned.
     */
    OperationListener run(String runId, RunInfo info);

    /** An experiment starts {@code epoch} in {@code mode} (e.g. {@code ivs}). */
    default void epoch(int epoch, String mode) {}
}
