package org.ivsbench.monitor;

import java.lang.management.ManagementFactory;
import java.util.Collections;
import java.util.Map;

import com.sun.management.OperatingSystemMXBean;

/**
 * The client's own CPU ({@code client.cpu_pct}: this JVM's process CPU over the interval, 100 = one core, the
 * unit of {@code proc.cpu_pct}), so the analyzer can tell whether host CPU went to the database server, to the
 * client or to another process. Read by the monitor thread only.
 */
final class ClientCpu {
    static final String COLUMN = "client.cpu_pct";

    private final OperatingSystemMXBean os;
    private long previousCpuNanos = -1;
    private long previousWallNanos;

    ClientCpu() {
        java.lang.management.OperatingSystemMXBean bean = ManagementFactory.getOperatingSystemMXBean();
        this.os = bean instanceof OperatingSystemMXBean sun ? sun : null;
    }

    /** The share since the previous call (empty cell on the first call or where the JVM cannot tell). */
    Map<String, Double> sample() {
        long cpu = os == null ? -1 : os.getProcessCpuTime();
        long wall = System.nanoTime();
        Double pct = null;
        if (cpu >= 0 && previousCpuNanos >= 0 && wall > previousWallNanos) {
            pct = Math.max(0, cpu - previousCpuNanos) * 100.0 / (wall - previousWallNanos);
        }
        previousCpuNanos = cpu;
        previousWallNanos = wall;
        return Collections.singletonMap(COLUMN, pct);
    }
}
