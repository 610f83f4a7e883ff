package org.ivsbench.config;

import java.util.Map;

/**
 * Where and how to connect. {@code type} is the {@code <type>} text; which names exist, and the defaults of
 * {@code driver} and {@code isolation}, belong to the database bindings, which check the section through the
 * loader's {@link TargetCheck}. {@code password} is a secret: toString() redacts it and writers must never
 * print it. {@code options} holds target-specific settings (e.g. writeConcern, readPreference, TLS flags)
 * passed through to the driver.
 */
public record TargetConfig(
        String type,
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

    /** The same settings for another server or database. */
    public TargetConfig withUrl(String newUrl) {
        return new TargetConfig(
                type, driver, newUrl, username, password, isolation, reconnectOnConnectionFailure, options);
    }

    @Override
    public String toString() {
        return "TargetConfig[type=" + type + ", url=" + url + ", username=" + username
                + ", password=" + (password == null ? "null" : "*****") + ", isolation=" + isolation
                + ", reconnect=" + reconnectOnConnectionFailure + ", options=" + options.keySet() + "]";
    }
}
