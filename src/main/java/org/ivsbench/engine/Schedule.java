package org.ivsbench.engine;

/**
 * Hands out the operations of one phase to terminals. Thread-safe. A claim also marks the operation as in
 * flight in the phase's statistics, in the same step, so a phase can never be seen as finished while a
 * terminal holds a claim it has not yet executed.
 */
public interface Schedule {

    /** The next operation for a terminal that is free at {@code nowNanos}, or null when there is none. */
    Claim claim(long nowNanos);

    /** No more claims from now on; arrivals due before the deadline but never claimed count as missed. */
    void end(long nowNanos);

    /**
     * Counts as missed the arrivals that are more than {@code slackNanos} past their backlog bound at
     * {@code nowNanos} although no terminal came to claim them (every terminal is stuck in its database). The
     * manager calls this while a phase runs, so a stall shows its missed arrivals in the windows it lasts,
     * not all at once when a terminal frees up. The slack leaves the ordinary case to the terminals.
     */
    default void expire(long nowNanos, long slackNanos) {}

    /** True when the schedule will hand out nothing more (ended, or a count phase has issued its count). */
    boolean exhausted();

    /**
     * True when every arrival due before the deadline has been handed out or counted as missed. A time phase
     * waits for this (at most the backlog bound) before it ends, so an arrival that came due just before the
     * deadline runs instead of being cut off as missed.
     */
    default boolean drained() {
        return true;
    }
}
