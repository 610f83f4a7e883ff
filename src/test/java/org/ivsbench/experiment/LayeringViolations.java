package org.ivsbench.experiment;

import org.ivsbench.mode.RunOptions;

/** Breaks LayeringTest's rule that nothing below the modes knows them (see mode.LayeringViolations). */
final class LayeringViolations {
    private LayeringViolations() {}

    /** An experiment reading the main command's options instead of its own arguments. */
    static final class ReadsRunOptions {
        boolean resume(RunOptions options) {
            return options.resume();
        }
    }
}
