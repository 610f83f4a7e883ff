package org.ivsbench.engine;

/**
 * Where the manager posts the current phase and terminals wait for the next one. The wait is on the clock
 * (see {@link Clock}), woken by its {@link Clock#signalAll()}.
 */
final class PhaseBoard {
    private final Clock clock;
    private volatile PhaseRun current;
    private volatile boolean closed;

    PhaseBoard(Clock clock) {
        this.clock = clock;
    }

    void post(PhaseRun run) {
        current = run;
        clock.signalAll();
    }

    void close() {
        closed = true;
        clock.signalAll();
    }

    /** The first phase with an index above {@code afterIndex}; null once the board is closed. */
    PhaseRun awaitAfter(int afterIndex) throws InterruptedException {
        clock.awaitUntil(() -> closed || posted(afterIndex) != null, Long.MAX_VALUE, Long.MAX_VALUE);
        return closed ? null : posted(afterIndex);
    }

    private PhaseRun posted(int afterIndex) {
        PhaseRun run = current;
        return run != null && run.config().index() > afterIndex ? run : null;
    }
}
