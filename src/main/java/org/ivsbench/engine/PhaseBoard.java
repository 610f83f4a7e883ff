package org.ivsbench.engine;

/** Where the manager posts the current phase and terminals wait for the next one. */
final class PhaseBoard {
    private PhaseRun current;
    private boolean closed;

    synchronized void post(PhaseRun run) {
        current = run;
        notifyAll();
    }

    synchronized void close() {
        closed = true;
        notifyAll();
    }

    /** The first phase with an index above {@code afterIndex}; null once the board is closed. */
    synchronized PhaseRun awaitAfter(int afterIndex) throws InterruptedException {
        while (!closed && (current == null || current.config().index() <= afterIndex)) {
            wait();
        }
        return closed ? null : current;
    }
}
