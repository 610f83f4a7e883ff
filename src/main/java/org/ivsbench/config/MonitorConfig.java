package org.ivsbench.config;

/**
 * The server-side resource monitor. {@code agent} is "host:port" of a remote monitor-agent, or null for
 * in-process sampling of the local host. {@code processName}/{@code pidFile} identify the database server
 * process (null: found from the target where possible).
 */
public record MonitorConfig(boolean enabled, long intervalMs, String agent, String processName, String pidFile) {
    public static MonitorConfig defaults() {
        return new MonitorConfig(true, 1000, null, null, null);
    }
}
