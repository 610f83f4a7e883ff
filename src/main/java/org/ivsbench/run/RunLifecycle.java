package org.ivsbench.run;

import java.io.PrintStream;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The lifecycle every --execute goes through, a plain run of phases and an experiment alike: a shutdown hook
 * turns SIGINT/SIGTERM into a stop request for the work and holds the JVM until the work has written what it
 * measured (at most {@value #WRITE_WAIT_SECONDS} s); the outcome becomes the exit code.
 *
 * <p>Exit codes: 0 completed, 1 failed, 130 stopped early. On a signal the JVM itself exits with 128 + the
 * signal's number once the hook returns (143 for SIGTERM, 130 for SIGINT): the code returned here is then
 * never seen, because {@code System.exit} waits for the running hooks and the JVM halts first.
 */
public final class RunLifecycle {
    public static final int COMPLETED = 0;
    public static final int FAILED = 1;
    public static final int INTERRUPTED = 130;
    static final long WRITE_WAIT_SECONDS = 30;

    /** What runs under the lifecycle. */
    public interface Work {
        /**
         * Runs to the end, or until {@link #stop()}; what was measured is written (and its folder printed)
         * before it returns or throws.
         */
        void run() throws Exception;

        /** Asks {@link #run()} to end early, keeping what was measured. Called from another thread. */
        void stop();
    }

    private final String what;
    private final Work work;
    private final PrintStream err;
    private final CountDownLatch written = new CountDownLatch(1);
    private volatile boolean stopRequested;

    /** {@code what} names the work in the error line ("error: the {@code what} stopped: ..."). */
    public RunLifecycle(String what, Work work, PrintStream err) {
        this.what = what;
        this.work = work;
        this.err = err;
    }

    /** Runs the work with the shutdown hook installed; returns the exit code 0, 1 or 130. */
    public int run() {
        Thread hook = new Thread(this::onShutdown, "ivsbench-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        int code;
        try {
            code = runWork();
        } finally {
            written.countDown();
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // The JVM is exiting on a signal: the hook is running and has just been released by `written`.
        }
        return code;
    }

    /** What a command does when it is interrupted outside a lifecycle: keep the flag, say so, exit 130. */
    public static int interrupted(PrintStream err) {
        Thread.currentThread().interrupt();
        err.println("interrupted");
        return INTERRUPTED;
    }

    /** Ends the work early, as a signal does. */
    public void requestStop() {
        stopRequested = true;
        work.stop();
    }

    /** The work's outcome as an exit code; a failure's line is printed while the hook still waits for it. */
    int runWork() {
        try {
            work.run();
            return stopRequested ? INTERRUPTED : COMPLETED;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return INTERRUPTED;
        } catch (Exception e) {
            err.println("error: the " + what + " stopped: " + e.getMessage());
            // A failure while stopping is most likely the stop's doing (a connection cut short).
            return stopRequested ? INTERRUPTED : FAILED;
        }
    }

    private void onShutdown() {
        requestStop();
        try {
            written.await(WRITE_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
