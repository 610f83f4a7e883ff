package org.ivsbench.cli;

import java.nio.file.Path;

import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.engine.WorkloadManager;
import org.ivsbench.target.Target;

final class RunMonitor implements AutoCloseable {
    static RunMonitor start(BenchmarkConfig config, Target target, Path dir, WorkloadManager manager) {
        return new RunMonitor();
    }

    @Override
    public void close() {
    }
}
