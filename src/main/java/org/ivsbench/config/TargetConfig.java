package org.ivsbench.config;

import java.util.Map;

/**
 * Where and how to connect. {@code password} is a secret: toString() redacts it and writers must never
 * print it. {@code options} holds target-specific settings (e.g. writeConcern, readPreference, TLS flags)
 * passed through to the driver.
 */
public record TargetConfig(
        DatabaseType type,
        String driver,
        String url,
        String username,
        String password,
        String isolation,
        boolean reconnectOnConnectionFailure,
        Map<String, String> options) {

    public TargetConfig {
        options = Map.copyOf(options);
    }

    @Override
    public String toString() {
        return "TargetConfig[type=" + type + ", url=" + url + ", username=" + username
                + ", password=" + (password == null ? "null" : "*****") + ", isolation=" + isolation
                + ", reconnect=" + reconnectOnConnectionFailure + ", options=" + options.keySet() + "]";
    }
}
