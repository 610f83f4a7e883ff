package org.ivsbench.monitor;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleSupplier;
import javax.net.ssl.SSLContext;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Pulls samples from a {@link MonitorAgent} and puts them on the client's clock.
 *
 * <p>Clock offset, NTP style: for each poll of {@code /time}, offset = agent_time - (t_send + t_recv) / 2. The
 * error of one estimate is at most half its round trip, so of the last {@value #WINDOW} estimates the one with
 * the smallest round trip is kept (a poll delayed by a GC pause or a busy network cannot drag the offset).
 */
public final class AgentClient {
    static final int WINDOW = 16;

    private final HttpClient http;
    private final URI base;
    private final DoubleSupplier clientClockMs;
    private final String secret;
    private final ObjectMapper json = new ObjectMapper();
    private final Deque<double[]> estimates = new ArrayDeque<>(); // {roundTripMs, offsetMs}
    private long lastAgentSampleMs = Long.MIN_VALUE;

    public AgentClient(String hostPort) {
        this(hostPort, null, AgentClient::wallClockMs);
    }

    /** {@code secret}: the agent's --secret-file secret, or null when it was started without one. */
    public AgentClient(String hostPort, String secret) {
        this(hostPort, secret, AgentClient::wallClockMs);
    }

    /** {@code clientClockMs}: epoch ms with sub-millisecond resolution (tests may inject their own). */
    public AgentClient(String hostPort, DoubleSupplier clientClockMs) {
        this(hostPort, null, clientClockMs);
    }

    AgentClient(String hostPort, String secret, DoubleSupplier clientClockMs) {
        this(hostPort, secret, null, clientClockMs);
    }

    /** {@code tls}: talk HTTPS, trusting what the context trusts ({@link AgentTls}); null for plain HTTP. */
    public AgentClient(String hostPort, String secret, SSLContext tls) {
        this(hostPort, secret, tls, AgentClient::wallClockMs);
    }

    AgentClient(String hostPort, String secret, SSLContext tls, DoubleSupplier clientClockMs) {
        this.base = URI.create((tls == null ? "http://" : "https://") + hostPort);
        this.secret = secret;
        this.clientClockMs = clientClockMs;
        HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2));
        if (tls != null) {
            builder.sslContext(tls);
        }
        this.http = builder.build();
    }

    static double wallClockMs() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1000.0 + now.getNano() / 1e6;
    }

    /** One /time round trip; returns the current best offset (agent minus client, ms). */
    public synchronized double measureOffset() throws IOException, InterruptedException {
        double send = clientClockMs.getAsDouble();
        JsonNode body = get("/time");
        double recv = clientClockMs.getAsDouble();
        double agentMs = body.get("time_ms").asDouble();
        estimates.addLast(new double[] {recv - send, agentMs - (send + recv) / 2});
        while (estimates.size() > WINDOW) {
            estimates.removeFirst();
        }
        return offsetMs();
    }

    /** Best estimate so far (NaN before the first measurement). */
    public synchronized double offsetMs() {
        double[] best = null;
        for (double[] e : estimates) {
            if (best == null || e[0] < best[0]) {
                best = e;
            }
        }
        return best == null ? Double.NaN : best[1];
    }

    /** Round trip of the estimate in use (its error bound is half of it). */
    public synchronized double offsetRoundTripMs() {
        return estimates.stream().mapToDouble(e -> e[0]).min().orElse(Double.NaN);
    }

    /**
     * Samples the agent finished since the previous call, with {@code timeMs} shifted onto the client clock
     * (not yet aligned: see {@link #window}). The first call asks for samples from {@code lookBackMs} ago.
     */
    public synchronized List<Sample> fetchNew(long lookBackMs) throws IOException, InterruptedException {
        double offset = offsetMs();
        if (Double.isNaN(offset)) {
            offset = measureOffset();
        }
        long since = lastAgentSampleMs != Long.MIN_VALUE
                ? lastAgentSampleMs
                : Math.round(clientClockMs.getAsDouble() + offset) - lookBackMs;
        JsonNode list = get("/samples?since=" + since);
        List<Sample> out = new ArrayList<>();
        for (JsonNode s : list) {
            long agentTime = s.get("time_ms").asLong();
            lastAgentSampleMs = Math.max(lastAgentSampleMs, agentTime);
            Map<String, Double> metrics = new LinkedHashMap<>();
            s.get("metrics")
                    .fields()
                    .forEachRemaining(f -> metrics.put(
                            f.getKey(), f.getValue().isNumber() ? f.getValue().asDouble() : null));
            out.add(new Sample(
                    Math.round(agentTime - offset), s.get("interval_ms").asLong(), metrics));
        }
        return out;
    }

    /**
     * The client window a shifted agent sample belongs to: the one holding the middle of the time it covers.
     * The agent samples on its own boundaries, so unless the clocks agree its intervals straddle two client
     * windows; the middle picks the window holding most of it (the residual misalignment is offset mod interval,
     * a few ms between NTP-synchronised hosts).
     */
    public static long window(Sample shifted, long clientIntervalMs) {
        long middle = shifted.timeMs() + shifted.intervalMs() / 2;
        return Math.floorDiv(middle, clientIntervalMs) * clientIntervalMs;
    }

    @Override
    public String toString() {
        return base.toString();
    }

    private JsonNode get(String path) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path))
                .timeout(Duration.ofSeconds(5))
                .GET();
        if (secret != null) {
            request.header("Authorization", "Bearer " + secret);
        }
        HttpResponse<byte[]> response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        if (response.statusCode() == 401) {
            throw new IOException("monitor agent " + base + ": HTTP 401, "
                    + (secret == null
                            ? "it was started with --secret-file: put that secret in a file named by monitor/agentSecretFile"
                            : "the secret in monitor/agentSecretFile is not the one in the agent's --secret-file"));
        }
        if (response.statusCode() != 200) {
            throw new IOException("monitor agent " + base + path + ": HTTP " + response.statusCode());
        }
        return json.readTree(response.body());
    }
}
