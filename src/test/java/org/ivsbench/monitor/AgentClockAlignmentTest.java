package org.ivsbench.monitor;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.config.MonitorConfig;
import org.ivsbench.testsupport.Await;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An agent whose clock runs 7.3 s ahead: the client must find the offset and put each agent sample in the
 * client window that holds (most of) the time the agent measured. Each agent sample carries a sequence number
 * so the test can look up exactly when the agent took it.
 */
class AgentClockAlignmentTest {
    private static final long SKEW_MS = 7300;
    /** 7300 mod 400 = 100: agent intervals straddle client windows, their middles sit 100 ms into one. */
    private static final long INTERVAL = 400;

    @TempDir
    Path dir;

    @Test
    void skewedAgentSamplesLandInTheClientWindowsTheyMeasured() throws Exception {
        AtomicLong seq = new AtomicLong();
        HostSampler fake = () -> {
            Map<String, Double> m = new LinkedHashMap<>();
            m.put("test.seq", (double) seq.getAndIncrement());
            m.put("os.cpu.idle_pct", 50.0);
            return m;
        };
        Clock skewed = Clock.offset(Clock.systemUTC(), Duration.ofMillis(SKEW_MS));
        Path csv = dir.resolve("monitor.csv");
        double offset;
        double roundTrip;
        try (MonitorAgent agent = MonitorAgent.start(
                new InetSocketAddress("127.0.0.1", 0), fake, INTERVAL, skewed, Duration.ofMinutes(5))) {
            String hostPort = "127.0.0.1:" + agent.address().getPort();
            awaitSamples(seq, 1); // the agent samples whether or not a client is there
            MonitorConfig config = new MonitorConfig(true, INTERVAL, hostPort, null, null);
            try (ResourceMonitor monitor = ResourceMonitor.start(config, null, CounterSelection.ALL, csv, () -> 3)) {
                // Samples the agent takes while the client runs; the client fetches them all by its close.
                awaitSamples(seq, seq.get() + 8);
                offset = monitor.agentOffsetMs();
                roundTrip = monitor.agentOffsetRoundTripMs();
            }

            // NTP style: the estimate is off by at most half the round trip it came from (measured here), plus
            // a millisecond for the agent's whole-millisecond time.
            assertEquals(
                    SKEW_MS, offset, roundTrip / 2 + 1, "estimated clock offset (round trip " + roundTrip + " ms)");

            // When did the agent take each sample (agent clock)?
            HttpResponse<String> r = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create("http://" + hostPort + "/samples?since=0"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode());
            Map<Long, Long> agentTimeBySeq = new HashMap<>();
            for (JsonNode s : new ObjectMapper().readTree(r.body())) {
                assertEquals(0, s.get("time_ms").asLong() % INTERVAL, "the agent aligns to its own clock");
                agentTimeBySeq.put(
                        s.get("metrics").get("test.seq").asLong(),
                        s.get("time_ms").asLong());
            }

            MonitorCsv table = new MonitorCsv(csv);
            assertTrue(table.header.contains("test.seq"));
            int checked = 0;
            long previousSeq = -1;
            for (Map<String, String> row : table.rows) {
                assertEquals("agent", row.get("source"));
                assertEquals("3", row.get("phase"));
                long t = Long.parseLong(row.get("time_ms"));
                assertEquals(0, t % INTERVAL, "client-aligned");
                double s = MonitorCsv.num(row, "test.seq");
                if (Double.isNaN(s)) {
                    continue; // first/last partial windows may have no agent sample yet
                }
                long agentStart = agentTimeBySeq.get((long) s);
                long clientMiddle = agentStart - SKEW_MS + INTERVAL / 2;
                long expectedWindow = Math.floorDiv(clientMiddle, INTERVAL) * INTERVAL;
                // The middle sits 100 ms from a boundary, far beyond the offset's error on loopback; only if
                // this run's measured error bound reached the boundary could the neighbour window be right too.
                long fromStart = clientMiddle - expectedWindow;
                double bound = roundTrip / 2 + 1;
                boolean neighbourToo = (fromStart <= bound && t == expectedWindow - INTERVAL)
                        || (INTERVAL - fromStart <= bound && t == expectedWindow + INTERVAL);
                if (!neighbourToo) {
                    assertEquals(expectedWindow, t, "sample " + (long) s + " taken at agent " + agentStart);
                }
                if (previousSeq >= 0) {
                    assertEquals(previousSeq + 1, (long) s, "no agent sample lost or repeated");
                }
                previousSeq = (long) s;
                checked++;
            }
            assertTrue(checked >= 5, "agent rows checked: " + checked + " of " + table.rows.size());
        }
    }

    /**
     * Until the fake sampler has been called {@code n} times. The limit only ends a hung test: it is far from
     * anything a slow machine needs for a dozen 400 ms samples.
     */
    private static void awaitSamples(AtomicLong seq, long n) throws Exception {
        Await.until(
                "the agent's " + n + " samples",
                Duration.ofSeconds(60),
                Duration.ofMillis(INTERVAL / 4),
                seq::get,
                s -> s >= n);
    }
}
