package org.ivsbench.monitor;

import java.nio.file.Path;
import java.util.function.IntSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.MonitorConfig;
import org.ivsbench.target.Target;

/**
 * The resource monitor for one run, writing monitor.csv beside samples.csv. A monitor that cannot start is
 * reported and the run goes on without it: the benchmark's own figures do not depend on it.
 */
public final class RunMonitor implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RunMonitor.class);

    private final ResourceMonitor monitor;

    private RunMonitor(ResourceMonitor monitor) {
        this.monitor = monitor;
    }

    public static RunMonitor start(BenchmarkConfig config, Target target, Path dir, IntSupplier currentPhase) {
        if (!config.monitor().enabled()) {
            return new RunMonitor(null);
        }
        try {
            return new RunMonitor(ResourceMonitor.start(withDefaultProcess(config), CounterSource.of(target),
                    dir.resolve("monitor.csv"), currentPhase));
        } catch (Exception e) {
            LOG.warn("the resource monitor could not start ({}); the run goes on without monitor.csv", e.getMessage());
            return new RunMonitor(null);
        }
    }

    /**
     * When the database runs on this host and the config names no process, watch the server by its usual
     * process name, so proc.* columns are filled without configuration.
     */
    static MonitorConfig withDefaultProcess(BenchmarkConfig config) {
        MonitorConfig m = config.monitor();
        if (m.agent() != null || m.processName() != null || m.pidFile() != null || !isLocal(config.target().url())) {
            return m;
        }
        String name = switch (config.target().type()) {
            case MARIADB, MYSQL -> "mariadbd";
            case MONGODB -> "mongod";
            case SQLITE -> null;
        };
        return name == null ? m : new MonitorConfig(m.enabled(), m.intervalMs(), null, name, null);
    }

    private static boolean isLocal(String url) {
        String u = url.toLowerCase(java.util.Locale.ROOT);
        return u.contains("//localhost") || u.contains("//127.") || u.contains("//[::1]");
    }

    @Override
    public void close() {
        if (monitor != null) {
            try {
                monitor.close();
            } catch (Exception e) {
                LOG.warn("closing the resource monitor failed: {}", e.getMessage());
            }
        }
    }
}
