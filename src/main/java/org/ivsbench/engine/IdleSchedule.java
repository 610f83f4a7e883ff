package org.ivsbench.engine;

/** Rate "disabled": the phase passes with its terminals idle. */
final class IdleSchedule implements Schedule {
    private volatile boolean ended;

    @Override
    public Claim claim(long nowNanos) {
        return null;
    }

    @Override
    public void end(long nowNanos) {
        ended = true;
    }

    @Override
    public boolean exhausted() {
        return ended;
    }
}
