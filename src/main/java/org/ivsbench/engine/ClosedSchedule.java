package org.ivsbench.engine;

import org.ivsbench.stats.PhaseStats;

/**
 * Closed loop (rate unlimited): a free terminal may start at once, until the deadline or until a count
 * phase has issued its count of measured operations. Response time equals service time here.
 */
final class ClosedSchedule implements Schedule {
    private final long measuredStartNanos;
    private final long deadlineNanos;
    private final long count;
    private final PhaseStats stats;
    private long measuredClaimed;
    private boolean ended;

    ClosedSchedule(long measuredStartNanos, long deadlineNanos, long count, PhaseStats stats) {
        this.measuredStartNanos = measuredStartNanos;
        this.deadlineNanos = deadlineNanos;
        this.count = count;
        this.stats = stats;
    }

    @Override
    public synchronized Claim claim(long nowNanos) {
        if (ended || nowNanos >= deadlineNanos) {
            return null;
        }
        boolean measured = nowNanos >= measuredStartNanos;
        if (measured && count > 0 && ++measuredClaimed >= count) {
            ended = true;
        }
        stats.operationStarted();
        return new Claim(nowNanos, measured);
    }

    @Override
    public synchronized void end(long nowNanos) {
        ended = true;
    }

    @Override
    public synchronized boolean exhausted() {
        return ended;
    }
}
