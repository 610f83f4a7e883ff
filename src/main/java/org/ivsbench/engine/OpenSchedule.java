package org.ivsbench.engine;

import org.ivsbench.stats.PhaseStats;

/**
 * Open loop: arrivals come at their intended times whatever the database does. A terminal that becomes free
 * takes the oldest arrival not yet taken; latency is measured from that arrival's intended start, so
 * queueing shows. An arrival that has waited longer than the backlog bound is counted as missed (never
 * dropped silently), as is any arrival still waiting when the phase ends.
 */
final class OpenSchedule implements Schedule {
    private final ArrivalProcess arrivals;
    private final long measuredStartNanos;
    private final long deadlineNanos;
    private final long count;
    private final long maxLagNanos;
    private final PhaseStats stats;
    private long measuredClaimed;
    private boolean ended;

    /**
     * @param deadlineNanos end of a time phase, or Long.MAX_VALUE for a count phase
     * @param count measured operations of a count phase, 0 for a time phase
     * @param maxLagNanos how late an arrival may start before it is counted as missed
     */
    OpenSchedule(
            ArrivalProcess arrivals,
            long measuredStartNanos,
            long deadlineNanos,
            long count,
            long maxLagNanos,
            PhaseStats stats) {
        this.arrivals = arrivals;
        this.measuredStartNanos = measuredStartNanos;
        this.deadlineNanos = deadlineNanos;
        this.count = count;
        this.maxLagNanos = maxLagNanos;
        this.stats = stats;
    }

    @Override
    public synchronized Claim claim(long nowNanos) {
        if (ended) {
            return null;
        }
        long t = arrivals.current();
        while (t < deadlineNanos && nowNanos - t > maxLagNanos) {
            miss(t, nowNanos);
            arrivals.advance();
            t = arrivals.current();
        }
        if (t >= deadlineNanos) {
            return null;
        }
        boolean measured = t >= measuredStartNanos;
        if (measured && count > 0 && ++measuredClaimed >= count) {
            ended = true;
        }
        stats.operationStarted();
        arrivals.advance();
        return new Claim(t, measured);
    }

    @Override
    public synchronized void expire(long nowNanos, long slackNanos) {
        if (ended) {
            return;
        }
        for (long t = arrivals.current();
                t < deadlineNanos && nowNanos - t > maxLagNanos + slackNanos;
                t = arrivals.current()) {
            miss(t, nowNanos);
            arrivals.advance();
        }
    }

    @Override
    public synchronized void end(long nowNanos) {
        if (ended) {
            return;
        }
        ended = true;
        long limit = Math.min(deadlineNanos, nowNanos + 1);
        for (long t = arrivals.current(); t < limit; t = arrivals.current()) {
            miss(t, nowNanos);
            arrivals.advance();
        }
    }

    @Override
    public synchronized boolean exhausted() {
        return ended;
    }

    @Override
    public synchronized boolean drained() {
        return ended || arrivals.current() >= deadlineNanos;
    }

    private void miss(long t, long nowNanos) {
        if (t >= measuredStartNanos) {
            stats.recordMissed(nowNanos - t);
        }
    }
}
