package org.ivsbench.monitor;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.config.MonitorConfig;
import org.ivsbench.testsupport.Await;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** monitor-agent --secret-file: only a client with the secret gets samples; the others get a clear 401. */
class AgentSecretTest {
    private static final String SECRET = "agent-secret-4f1c9e";

    @TempDir
    Path dir;

    /** Samples the fake host has given the agent so far. */
    private final AtomicInteger sampled = new AtomicInteger();

    private MonitorAgent agent(String secret) throws IOException {
        HostSampler fake = () -> {
            sampled.incrementAndGet();
            return Map.of("os.cpu.idle_pct", 50.0);
        };
        return MonitorAgent.start(
                new InetSocketAddress("127.0.0.1", 0), fake, 200, Clock.systemUTC(), Duration.ofMinutes(1), secret);
    }

    @Test
    void onlyTheSecretOpensTheAgent() throws Exception {
        try (MonitorAgent agent = agent(SECRET)) {
            String hostPort = "127.0.0.1:" + agent.address().getPort();
            HttpResponse<String> plain = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create("http://" + hostPort + "/samples?since=0"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertEquals(401, plain.statusCode());
            assertEquals("", plain.body(), "no data without the secret");

            IOException none = assertThrows(IOException.class, () -> new AgentClient(hostPort).measureOffset());
            assertTrue(
                    none.getMessage().contains("HTTP 401") && none.getMessage().contains("monitor/agentSecretFile"),
                    none.getMessage());
            IOException wrong =
                    assertThrows(IOException.class, () -> new AgentClient(hostPort, SECRET + "x").measureOffset());
            assertTrue(wrong.getMessage().contains("is not the one"), wrong.getMessage());
            assertFalse(wrong.getMessage().contains(SECRET), "the secret is never in a message");

            awaitSampled(sampled.get() + 1);
            AgentClient client = new AgentClient(hostPort, SECRET);
            client.measureOffset();
            assertFalse(client.fetchNew(5000).isEmpty(), "samples with the secret");
        }
    }

    @Test
    void theRunMonitorSendsTheConfiguredSecret() throws Exception {
        try (MonitorAgent agent = agent(SECRET)) {
            String hostPort = "127.0.0.1:" + agent.address().getPort();
            Path csv = dir.resolve("monitor.csv");
            MonitorConfig config = new MonitorConfig(true, 200, hostPort, null, null, SECRET);
            assertFalse(config.toString().contains(SECRET), config.toString());
            try (ResourceMonitor monitor = ResourceMonitor.start(config, null, CounterSelection.ALL, csv, () -> 0)) {
                awaitSampled(sampled.get() + 3); // agent samples inside the monitor's span, however slow the box
            }
            MonitorCsv table = new MonitorCsv(csv);
            assertTrue(
                    table.rows.stream()
                            .anyMatch(r -> "agent".equals(r.get("source"))
                                    && !r.get("os.cpu.idle_pct").isEmpty()),
                    "agent rows: " + table.rows);
        }
    }

    /** Until the agent has sampled {@code n} times; the limit only ends a hung test. */
    private void awaitSampled(int n) throws Exception {
        Await.until("the agent's " + n + " samples", Duration.ofSeconds(60), sampled::get, s -> s >= n);
    }
}
