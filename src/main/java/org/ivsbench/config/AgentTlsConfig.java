package org.ivsbench.config;

/**
 * {@code monitor/agentTls}, {@code agentTrustStore}: the client talks HTTPS to the monitor agent. {@code trustStore}
 * is a PKCS12 or JKS file with the certificate(s) to trust (absolute path), or null for the JDK's own trust
 * store; {@code trustStorePassword} its password, or null. toString() never shows the password.
 */
public record AgentTlsConfig(String trustStore, String trustStorePassword) {
    @Override
    public String toString() {
        return "AgentTlsConfig[trustStore=" + trustStore + ", trustStorePassword="
                + (trustStorePassword == null ? "null" : "*****") + "]";
    }
}
