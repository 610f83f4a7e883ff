package org.ivsbench.monitor;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.config.MonitorConfig;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An agent sample with an empty cell (a rate the agent could not compute, e.g. the I/O of a server process whose
 * child just exited) is written as an empty cell beside the others. It once made every tick of the run's monitor
 * fail (a null unboxed while merging the agent's samples), leaving monitor.csv empty: seen with an agent watching
 * PostgreSQL through the jar.
 */
class AgentEmptyCellTest {
    @TempDir
    Path dir;

    @Test
    void aSampleWithAnEmptyCellIsWrittenWithTheOthers() throws Exception {
        AtomicInteger sampled = new AtomicInteger();
        HostSampler withEmptyCell = () -> {
            sampled.incrementAndGet();
            Map<String, Double> m = new LinkedHashMap<>();
            m.put("os.cpu.idle_pct", 50.0);
            m.put("proc.read_bytes_ps", null);
            m.put("proc.rss_bytes", 4096.0);
            return m;
        };
        try (MonitorAgent agent = MonitorAgent.start(
                new InetSocketAddress("127.0.0.1", 0),
                withEmptyCell,
                200,
                Clock.systemUTC(),
                Duration.ofMinutes(1),
                null,
                null)) {
            Path csv = dir.resolve("monitor.csv");
            MonitorConfig config = new MonitorConfig(
                    true, 200, "127.0.0.1:" + agent.address().getPort(), null, null, null, null, null);
            try (ResourceMonitor monitor = ResourceMonitor.start(config, null, CounterSelection.ALL, csv, () -> 0)) {
                int until = sampled.get() + 6;
                long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (sampled.get() < until && System.nanoTime() < giveUp) {
                    Thread.sleep(50);
                }
            }
            String text = Files.readString(csv);
            assertTrue(!text.isEmpty(), "monitor.csv is empty");
            MonitorCsv table = new MonitorCsv(csv);
            assertTrue(
                    table.rows.stream()
                            .anyMatch(r -> r.get("source").equals("agent")
                                    && r.get("os.cpu.idle_pct").equals("50")
                                    && r.get("proc.rss_bytes").equals("4096")
                                    && r.get("proc.read_bytes_ps").isEmpty()),
                    "the agent's rows with the empty cell empty: " + text);
        }
    }
}
