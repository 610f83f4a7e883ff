package org.ivsbench.mode;

import java.util.List;
import java.util.Map;

import picocli.CommandLine;

import org.ivsbench.cli.Main;
import org.ivsbench.run.MeasuredRun;
import org.ivsbench.stats.RunInfo;

/**
 * Classes that break LayeringTest's rules on purpose, in the package a rule guards: LayeringTest shows that each
 * rule fails on its violator (and these are never part of the checked main classes).
 */
final class LayeringViolations {
    private LayeringViolations() {}

    /** A mode reading picocli's parsed command instead of RunOptions. */
    static final class ReadsPicocli {
        int exitCode(CommandLine commandLine) {
            return commandLine.getCommandSpec().exitCodeOnSuccess();
        }
    }

    /** A mode calling back into the command line. */
    static final class CallsTheCommandLine {
        int run() {
            return Main.execute("--help");
        }
    }

    /** A mode writing a summary's RunInfo itself instead of through run.RunFolder. */
    static final class BuildsItsOwnRunInfo {
        RunInfo info() {
            return new RunInfo("dev", "ycsbivs", Map.of(), "sha256:x", 1, 1, 1, List.of());
        }
    }

    /** A mode stopping a run itself instead of through run.Stopping. */
    static final class StopsARunItself {
        void stop(MeasuredRun run) {
            run.requestStop();
        }
    }
}
