package org.ivsbench.cli;

import org.ivsbench.run.RunLifecycle;

/** Breaks LayeringTest's rule that the command line runs no mode itself (see mode.LayeringViolations). */
final class LayeringViolations {
    private LayeringViolations() {}

    /** A run mode left in the command line. */
    static final class RunsAModeItself implements RunLifecycle.Work {
        @Override
        public void run() {}

        @Override
        public void stop() {}
    }
}
