package org.ivsbench.config;

/**
 * The server-side resource monitor. {@code agent} is "host:port" of a remote monitor-agent, or null for
 * in-process sampling of the local host. {@code agentSecret} is the shared secret the agent was started with
 * ({@code --secret-file}), or null. {@code processName}/{@code pidFile} identify the database server process
 * (null: found from the target where possible). {@code exporters}: read the server side from Prometheus exporters
 * instead (null: built-in sampling). {@code agentTls}: HTTPS to the agent (null: plain HTTP). toString() never shows
 * the secret.
 */
public record MonitorConfig(
        boolean enabled,
        long intervalMs,
        String agent,
        String processName,
        String pidFile,
        String agentSecret,
        ExportersConfig exporters,
        AgentTlsConfig agentTls) {

    public MonitorConfig(
            boolean enabled, long intervalMs, String agent, String processName, String pidFile, String agentSecret) {
        this(enabled, intervalMs, agent, processName, pidFile, agentSecret, null, null);
    }

    public MonitorConfig(
            boolean enabled,
            long intervalMs,
            String agent,
            String processName,
            String pidFile,
            String agentSecret,
            ExportersConfig exporters) {
        this(enabled, intervalMs, agent, processName, pidFile, agentSecret, exporters, null);
    }

    public MonitorConfig(boolean enabled, long intervalMs, String agent, String processName, String pidFile) {
        this(enabled, intervalMs, agent, processName, pidFile, null);
    }

    public static MonitorConfig defaults() {
        return new MonitorConfig(true, 1000, null, null, null, null, null, null);
    }

    /** The same with another interval. */
    public MonitorConfig withIntervalMs(long ms) {
        return new MonitorConfig(enabled, ms, agent, processName, pidFile, agentSecret, exporters, agentTls);
    }

    /**
     * The monitor of a run phase on an experiment's fresh instance, which the run starts on this host: the pid file,
     * process name and exporters name the primary's server, so they are left out and the instance is sampled here
     * (its process found by the port it listens on, its counters over its own connection). An agent stays: it runs
     * on the database host, where the instance runs too.
     */
    public MonitorConfig forFreshInstance() {
        return new MonitorConfig(enabled, intervalMs, agent, null, null, agentSecret, null, agentTls);
    }

    @Override
    public String toString() {
        return "MonitorConfig[enabled=" + enabled + ", intervalMs=" + intervalMs + ", agent=" + agent
                + ", processName=" + processName + ", pidFile=" + pidFile + ", agentSecret="
                + (agentSecret == null ? "null" : "*****") + ", exporters=" + exporters + ", agentTls=" + agentTls
                + "]";
    }
}
