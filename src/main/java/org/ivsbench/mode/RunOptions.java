package org.ivsbench.mode;

import java.nio.file.Path;
import java.util.List;

/**
 * The options of the main command as plain values (the command line's parser fills it): what the modes read.
 * {@code intervalMonitorMs}, {@code jsonHistograms}, {@code trace}, {@code shard}, {@code dialectsExport} and {@code metricsListen}
 * are null when not given; {@code commandLine} is the arguments as typed (environment.json records them).
 */
public record RunOptions(
        String benchmark,
        Path config,
        boolean create,
        boolean clear,
        boolean load,
        boolean execute,
        boolean resume,
        boolean shrink,
        Path directory,
        int windowSeconds,
        Long intervalMonitorMs,
        Path jsonHistograms,
        boolean benchbaseOutputs,
        boolean benchbaseRaw,
        Path trace,
        String shard,
        long barrierTimeoutSeconds,
        String dialectsExport,
        String metricsListen,
        long metricsLingerSeconds,
        List<String> commandLine) {

    public RunOptions {
        commandLine = List.copyOf(commandLine);
    }
}
