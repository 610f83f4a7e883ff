package org.ivsbench.engine;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * A deterministic clock for tests, discrete-event style: time stands still while any attached thread runs,
 * and when every attached thread waits on the clock with nothing to wake it, time jumps to the earliest
 * deadline. A 60-second phase thus runs in milliseconds of real time, and its figures are exact. Test
 * terminals simulate service time by sleeping on this clock ({@link #work}).
 *
 * <p>Every thread that waits on the clock must be attached while it may do so (the engine attaches its
 * manager and terminal threads). A wait ends when its deadline is reached, when its condition holds (checked
 * whenever an attached thread starts waiting or leaves, or on {@link #signalAll()}) or when its thread is
 * interrupted. When every attached thread waits, none with a deadline, nothing could ever wake them: the
 * clock fails them all with an {@link AssertionError} rather than letting the test hang.
 */
final class VirtualClock implements Clock {
    /** Wall time at virtual zero: a whole minute, so window boundaries read easily. */
    static final long EPOCH_MS = 1_700_000_040_000L;

    private volatile long now;
    private final Set<Thread> attached = new HashSet<>();
    private final Map<Thread, Waiter> waiting = new HashMap<>();
    private AssertionError stalled;

    private record Waiter(Thread thread, BooleanSupplier done, long deadline) {}

    @Override
    public long nanoTime() {
        return now;
    }

    @Override
    public long wallMillis() {
        return EPOCH_MS + now / 1_000_000;
    }

    @Override
    public void sleepUntil(long deadlineNanos) throws InterruptedException {
        awaitUntil(null, deadlineNanos, 0);
    }

    /** The simulated service time of a test terminal's operation: sleeps, and keeps an interrupt for later. */
    void work(long nanos) {
        try {
            sleepUntil(now + nanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public boolean awaitUntil(BooleanSupplier done, long deadlineNanos, long recheckNanos) throws InterruptedException {
        Thread me = Thread.currentThread();
        synchronized (this) {
            if (!attached.contains(me)) {
                throw new IllegalStateException(me.getName() + " waits on the virtual clock but is not attached");
            }
            waiting.put(me, new Waiter(me, done, deadlineNanos));
        }
        while (true) {
            synchronized (this) {
                // The thread leaves the waiting set in the same step as it decides to return: in between, a
                // thread still listed but no longer ready (its interrupt consumed) could let time move on.
                boolean leaving = true;
                try {
                    if (done != null && done.getAsBoolean()) {
                        return true;
                    }
                    if (now >= deadlineNanos) {
                        return false;
                    }
                    if (Thread.interrupted()) {
                        throw new InterruptedException();
                    }
                    if (stalled != null) {
                        throw stalled;
                    }
                    advanceIfAllWait();
                    leaving = false;
                } finally {
                    if (leaving) {
                        waiting.remove(me);
                    }
                }
            }
            // Unparked when ready; park is used (not Object.wait) because it leaves the interrupt flag set,
            // so a waiter interrupted but not yet awake still counts as ready.
            LockSupport.park(this);
        }
    }

    @Override
    public synchronized void signalAll() {
        for (Waiter w : waiting.values()) {
            if (ready(w)) {
                LockSupport.unpark(w.thread());
            }
        }
    }

    @Override
    public synchronized void attach(Thread thread) {
        attached.add(thread);
    }

    @Override
    public synchronized void detach(Thread thread) {
        if (waiting.containsKey(thread)) {
            throw new IllegalStateException(thread.getName() + " is detached while it waits");
        }
        attached.remove(thread);
        advanceIfAllWait();
    }

    /**
     * Runs {@code action} on a thread of its own at virtual time {@code atNanos} (a stop request, say). Attaches
     * the calling thread too, so that time cannot reach {@code atNanos} before the caller has started what the
     * action is meant to interrupt; the engine detaches it when its run ends.
     */
    Thread at(long atNanos, Runnable action) {
        attach(Thread.currentThread());
        Thread thread = new Thread(
                () -> {
                    try {
                        sleepUntil(atNanos);
                        action.run();
                    } catch (InterruptedException e) {
                        // Not run.
                    } finally {
                        detach(Thread.currentThread());
                    }
                },
                "at-" + atNanos);
        thread.setDaemon(true);
        attach(thread);
        thread.start();
        return thread;
    }

    private boolean ready(Waiter w) {
        return w.thread().isInterrupted()
                || now >= w.deadline()
                || (w.done() != null && w.done().getAsBoolean());
    }

    private void advanceIfAllWait() {
        if (waiting.isEmpty() || waiting.size() < attached.size()) {
            return; // someone runs: what it does may wake a waiter, so time stands still
        }
        boolean anyReady = false;
        long next = Long.MAX_VALUE;
        for (Waiter w : waiting.values()) {
            if (ready(w)) {
                LockSupport.unpark(w.thread());
                anyReady = true;
            }
            next = Math.min(next, w.deadline());
        }
        if (anyReady) {
            return;
        }
        if (next == Long.MAX_VALUE) {
            List<String> names = new ArrayList<>();
            waiting.keySet().forEach(t -> names.add(t.getName()));
            stalled = new AssertionError("virtual clock stalled at " + now + " ns: " + names
                    + " all wait for each other and none for a time");
            waiting.keySet().forEach(LockSupport::unpark);
            return;
        }
        now = next;
        for (Waiter w : waiting.values()) {
            if (w.deadline() <= next) {
                LockSupport.unpark(w.thread());
            }
        }
    }
}
