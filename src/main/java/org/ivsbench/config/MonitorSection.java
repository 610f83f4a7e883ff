package org.ivsbench.config;

import java.nio.file.Path;
import java.util.List;

/** {@code monitor}: the server-side resource sampler. */
final class MonitorSection {
    private static final List<String> ELEMENTS = List.of(
            "enabled",
            "interval",
            "agent",
            "agentSecretFile",
            "agentTls",
            "agentTrustStore",
            "agentTrustStorePasswordFile",
            "process",
            "pidFile",
            "exporters");
    /** Below 100 ms /proc counters move in too few ticks (CLK_TCK 100) to say anything and sampling costs show. */
    static final long MIN_INTERVAL_MS = 100;

    private MonitorSection() {}

    static MonitorConfig parse(Element root, Path configDir) throws ConfigException {
        Element section = root.single("monitor");
        if (section == null) {
            return MonitorConfig.defaults();
        }
        section.requireSection(ELEMENTS);
        MonitorConfig defaults = MonitorConfig.defaults();
        boolean enabled = section.bool("enabled", defaults.enabled());
        String intervalText = section.leaf("interval");
        long interval = defaults.intervalMs();
        if (intervalText != null) {
            interval = Leaves.parseLong(section.childPath("interval"), intervalText);
            if (interval < MIN_INTERVAL_MS) {
                throw new ConfigException(
                        section.childPath("interval"),
                        "'" + intervalText + "' is below the minimum of " + MIN_INTERVAL_MS + " ms");
            }
        }
        String agent = section.leaf("agent");
        if (agent != null) {
            checkHostPort(section.childPath("agent"), agent);
        }
        String secretFile = section.leaf("agentSecretFile");
        String secret = null;
        if (secretFile != null) {
            if (agent == null) {
                throw new ConfigException(
                        section.childPath("agentSecretFile"),
                        "'" + secretFile + "' without" + " monitor/agent: the secret is for a remote monitor-agent");
            }
            secret =
                    SecretFile.firstLine(section.childPath("agentSecretFile"), secretFile, configDir, "agent's secret");
        }
        String process = nonEmpty(section, "process");
        String pidFile = nonEmpty(section, "pidFile");
        ExportersConfig exporters = ExportersSection.parse(section, configDir);
        if (exporters != null && agent != null) {
            throw new ConfigException(
                    section.childPath("exporters"),
                    "beside monitor/agent '" + agent + "': the server side comes from the agent or from exporters");
        }
        AgentTlsConfig tls = agentTls(section, configDir, agent);
        return new MonitorConfig(enabled, interval, agent, process, pidFile, secret, exporters, tls);
    }

    /** HTTPS to the agent: agentTls true, or a trust store (which implies it); null for plain HTTP. */
    private static AgentTlsConfig agentTls(Element section, Path configDir, String agent) throws ConfigException {
        boolean tls = section.bool("agentTls", false);
        String store = section.leaf("agentTrustStore");
        String passwordFile = section.leaf("agentTrustStorePasswordFile");
        if (passwordFile != null && store == null) {
            throw new ConfigException(
                    section.childPath("agentTrustStorePasswordFile"),
                    "'" + passwordFile + "' without monitor/agentTrustStore");
        }
        if (store == null) {
            if (tls && agent == null) {
                throw new ConfigException(section.childPath("agentTls"), "'true' without monitor/agent");
            }
            return tls ? new AgentTlsConfig(null, null) : null;
        }
        String path = section.childPath("agentTrustStore");
        if (agent == null) {
            throw new ConfigException(
                    path, "'" + store + "' without monitor/agent: the trust store is for a monitor-agent");
        }
        if (store.isBlank()) {
            throw new ConfigException(path, "is empty (name a PKCS12 or JKS file with the agent's certificate)");
        }
        if (section.leaf("agentTls") != null && !tls) {
            throw new ConfigException(path, "'" + store + "' with monitor/agentTls false: a trust store means HTTPS");
        }
        Path file = configDir.resolve(store).toAbsolutePath();
        if (!java.nio.file.Files.isReadable(file) || !java.nio.file.Files.isRegularFile(file)) {
            throw new ConfigException(path, "'" + store + "' is not a readable file (" + file + ")");
        }
        String password = passwordFile == null
                ? null
                : SecretFile.firstLine(
                        section.childPath("agentTrustStorePasswordFile"),
                        passwordFile,
                        configDir,
                        "trust store's password");
        return new AgentTlsConfig(file.toString(), password);
    }

    private static String nonEmpty(Element section, String name) throws ConfigException {
        String value = section.leaf(name);
        if (value != null && value.isBlank()) {
            throw new ConfigException(
                    section.childPath(name), "is empty (leave it out to find the process from the target)");
        }
        return value;
    }

    /** host:port, with IPv6 hosts in brackets ([::1]:9100) as in URLs. */
    static void checkHostPort(String path, String text) throws ConfigException {
        String host;
        String port;
        if (text.startsWith("[")) {
            int close = text.indexOf("]:");
            if (close < 0) {
                throw new ConfigException(
                        path, "'" + text + "' is not host:port (IPv6 hosts go in brackets: [::1]:9100)");
            }
            host = text.substring(1, close);
            port = text.substring(close + 2);
        } else {
            int colon = text.lastIndexOf(':');
            if (colon < 0 || text.indexOf(':') != colon) {
                throw new ConfigException(
                        path, "'" + text + "' is not host:port (e.g. dbhost:9100; IPv6 as [::1]:9100)");
            }
            host = text.substring(0, colon);
            port = text.substring(colon + 1);
        }
        if (host.isBlank()) {
            throw new ConfigException(path, "'" + text + "' has no host");
        }
        int number;
        try {
            number = Integer.parseInt(port);
        } catch (NumberFormatException e) {
            throw new ConfigException(path, "'" + text + "' has port '" + port + "', which is not a number");
        }
        if (number < 1 || number > 65535) {
            throw new ConfigException(path, "'" + text + "' has port " + number + ", outside 1..65535");
        }
    }
}
