package org.ivsbench.run;

import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The one stop of a run mode (phases, sweep, tenants, an experiment): a request - a signal through
 * {@link RunLifecycle}, or the mode itself (a failing tenant) - is remembered, ends every {@link MeasuredRun} in
 * progress early (what it measured is kept), interrupts the threads in a stoppable wait (a sweep's reload) and runs
 * the mode's own hooks. A run or a wait that begins after the request sees it at once. Safe from any thread.
 */
public final class Stopping {
    /** A step that may wait long and ends early when its thread is interrupted. */
    public interface Wait {
        void run() throws Exception;
    }

    private volatile boolean requested;
    private final Set<MeasuredRun> runs = ConcurrentHashMap.newKeySet();
    private final Set<Thread> waiting = ConcurrentHashMap.newKeySet();
    private final List<Runnable> hooks = new CopyOnWriteArrayList<>();

    /** Whether a stop was requested: no new step should start. */
    public boolean requested() {
        return requested;
    }

    /** Stops the mode: remembered, then every run in progress stopped, every waiting thread interrupted, every hook run. */
    public void request() {
        requested = true;
        for (MeasuredRun run : runs) {
            run.requestStop();
        }
        for (Thread t : waiting) {
            t.interrupt();
        }
        for (Runnable hook : hooks) {
            hook.run();
        }
    }

    /** {@code hook} runs on every request (e.g. to free threads waiting at a barrier). */
    public void onRequest(Runnable hook) {
        hooks.add(hook);
    }

    /** From now on a request stops {@code run}; stopped at once when the request came before. */
    public void track(MeasuredRun run) {
        runs.add(run);
        if (requested) {
            run.requestStop();
        }
    }

    /** Executes {@code run} under this stop ({@link #track}); returns its failure or null, as MeasuredRun does. */
    public Exception execute(MeasuredRun run) throws IOException {
        track(run);
        try {
            return run.execute();
        } finally {
            runs.remove(run);
        }
    }

    /** Runs {@code wait} unless a stop was requested; a request meanwhile interrupts this thread. */
    public void interruptibly(Wait wait) throws Exception {
        Thread self = Thread.currentThread();
        waiting.add(self);
        try {
            if (!requested) {
                wait.run();
            }
        } finally {
            waiting.remove(self);
        }
    }
}
