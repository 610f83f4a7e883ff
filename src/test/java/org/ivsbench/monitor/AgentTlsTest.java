package org.ivsbench.monitor;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.config.AgentTlsConfig;
import org.ivsbench.config.MonitorConfig;
import org.ivsbench.testsupport.Await;
import org.ivsbench.testsupport.KeyTool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The monitor agent over HTTPS with a key store made by keytool: a client trusting its certificate gets samples
 * (the secret now inside TLS), a plain-HTTP client and a client trusting another certificate get nothing, and a
 * run's monitor configured with the trust store writes the agent's rows.
 */
class AgentTlsTest {
    private static final String SECRET = "agent-secret-over-tls-7d2e";
    private static final String STORE_PASSWORD = "store-pw-91c3";
    private static final String TRUST_PASSWORD = "trust-pw-5a8b";

    @TempDir
    static Path keys;

    @TempDir
    Path dir;

    private final AtomicInteger sampled = new AtomicInteger();

    @BeforeAll
    static void makeKeys() throws Exception {
        KeyTool.keyPair(keys.resolve("agent.p12"), STORE_PASSWORD, "agent");
        KeyTool.trust(keys.resolve("agent.p12"), STORE_PASSWORD, "agent", keys.resolve("trust.p12"), TRUST_PASSWORD);
        KeyTool.keyPair(keys.resolve("other.p12"), STORE_PASSWORD, "other");
        KeyTool.trust(
                keys.resolve("other.p12"), STORE_PASSWORD, "other", keys.resolve("other-trust.p12"), TRUST_PASSWORD);
    }

    private MonitorAgent agent() throws IOException {
        HostSampler fake = () -> {
            sampled.incrementAndGet();
            return Map.of("os.cpu.idle_pct", 50.0);
        };
        SSLContext tls = AgentTls.serverContext(keys.resolve("agent.p12"), STORE_PASSWORD.toCharArray());
        return MonitorAgent.start(
                new InetSocketAddress("127.0.0.1", 0),
                fake,
                200,
                Clock.systemUTC(),
                Duration.ofMinutes(1),
                SECRET,
                tls);
    }

    /** Until the fake host has been sampled {@code n} times; the limit only ends a hung test. */
    private void awaitSampled(int n) throws Exception {
        Await.until("the agent's " + n + " samples", Duration.ofSeconds(60), sampled::get, s -> s >= n);
    }

    @Test
    void onlyAClientThatTrustsTheAgentsCertificateGetsSamples() throws Exception {
        try (MonitorAgent agent = agent()) {
            String hostPort = "127.0.0.1:" + agent.address().getPort();
            awaitSampled(3);
            SSLContext trusting = AgentTls.clientContext(keys.resolve("trust.p12"), TRUST_PASSWORD.toCharArray());
            AgentClient client = new AgentClient(hostPort, SECRET, trusting);
            client.measureOffset();
            assertFalse(client.fetchNew(5000).isEmpty(), "samples over HTTPS");

            // Plain HTTP to a TLS port: the agent answers no HTTP at all, so no samples and no secret in clear.
            assertThrows(IOException.class, () -> new AgentClient(hostPort, SECRET).measureOffset());

            SSLContext other = AgentTls.clientContext(keys.resolve("other-trust.p12"), TRUST_PASSWORD.toCharArray());
            IOException untrusted =
                    assertThrows(IOException.class, () -> new AgentClient(hostPort, SECRET, other).measureOffset());
            assertTrue(causedBy(untrusted, SSLHandshakeException.class), "an untrusted certificate: " + untrusted);
        }
    }

    @Test
    void aRunsMonitorWithTheTrustStoreWritesTheAgentsRows() throws Exception {
        try (MonitorAgent agent = agent()) {
            String hostPort = "127.0.0.1:" + agent.address().getPort();
            Path csv = dir.resolve("monitor.csv");
            MonitorConfig config = new MonitorConfig(
                    true,
                    200,
                    hostPort,
                    null,
                    null,
                    SECRET,
                    null,
                    new AgentTlsConfig(keys.resolve("trust.p12").toString(), TRUST_PASSWORD));
            assertFalse(config.toString().contains(TRUST_PASSWORD), config.toString());
            try (ResourceMonitor monitor = ResourceMonitor.start(config, null, CounterSelection.ALL, csv, () -> 0)) {
                awaitSampled(sampled.get() + 4);
            }
            MonitorCsv table = new MonitorCsv(csv);
            assertTrue(
                    table.rows.stream()
                            .anyMatch(r -> r.get("source").equals("agent")
                                    && r.get("os.cpu.idle_pct").equals("50")),
                    "rows from the agent over HTTPS: " + Files.readString(csv));
        }
    }

    @Test
    void aWrongPasswordOrAStoreWithoutAKeyIsOneClearErrorWithoutThePassword() {
        IllegalArgumentException wrong = assertThrows(
                IllegalArgumentException.class,
                () -> AgentTls.serverContext(keys.resolve("agent.p12"), "not-it".toCharArray()));
        assertTrue(wrong.getMessage().contains("wrong password"), wrong.getMessage());
        assertFalse(wrong.getMessage().contains("not-it"));
        IllegalArgumentException noKey = assertThrows(
                IllegalArgumentException.class,
                () -> AgentTls.serverContext(keys.resolve("trust.p12"), TRUST_PASSWORD.toCharArray()));
        assertTrue(noKey.getMessage().contains("holds no private key"), noKey.getMessage());
        IllegalArgumentException missing = assertThrows(
                IllegalArgumentException.class, () -> AgentTls.clientContext(keys.resolve("nope.p12"), null));
        assertEquals("trust store '" + keys.resolve("nope.p12") + "' is not a readable file", missing.getMessage());
    }

    private static boolean causedBy(Throwable t, Class<? extends Throwable> type) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (type.isInstance(c)) {
                return true;
            }
        }
        return false;
    }
}
