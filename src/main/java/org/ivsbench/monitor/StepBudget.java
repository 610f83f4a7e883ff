package org.ivsbench.monitor;

/**
 * At most one step per interval, with one exception: a step in the service (throughput or missed arrivals) is
 * limited only by the last step in the service, so a latency wobble never spends the budget a stall needs. A
 * latency-only step is limited by the last step of either kind. Pure logic, not thread-safe.
 */
final class StepBudget {
    private final long minIntervalMs;
    private long lastMs = Long.MIN_VALUE;
    private long lastServiceMs = Long.MIN_VALUE;

    StepBudget(long minIntervalMs) {
        this.minIntervalMs = minIntervalMs;
    }

    /** Whether a step at {@code timeMs} may be taken; if so, it is counted. */
    boolean take(long timeMs, boolean service) {
        long since = service ? lastServiceMs : lastMs;
        if (since != Long.MIN_VALUE && timeMs - since < minIntervalMs) {
            return false;
        }
        lastMs = timeMs;
        if (service) {
            lastServiceMs = timeMs;
        }
        return true;
    }
}
