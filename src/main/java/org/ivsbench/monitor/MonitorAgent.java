package org.ivsbench.monitor;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import javax.net.ssl.SSLContext;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server-side half of remote monitoring: runs on the database host, samples /proc continuously at its
 * clock's interval boundaries into a bounded ring buffer (one hour by default), and serves
 * {@code GET /time} ({@code {"time_ms": n}}) and {@code GET /samples?since=<agent ms>} (a JSON list of the samples
 * whose {@code time_ms} is greater, oldest first). Sampling does not depend on a client being connected, so a
 * client that polls late or reconnects loses nothing younger than the buffer.
 *
 * <p>Plain HTTP, or HTTPS with {@code --keystore} (the JDK's HttpsServer, {@link AgentTls}). With
 * {@code --secret-file} every request must carry {@code Authorization: Bearer <secret>} (the file's first line;
 * compared in constant time) or gets 401 and no data; over plain HTTP the secret travels unencrypted, so it
 * keeps out other users of a private network, not an eavesdropper; over HTTPS it is encrypted. Without it anyone who can reach the
 * port reads the samples: listen on loopback or a private network (the default is 127.0.0.1).
 */
public final class MonitorAgent implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MonitorAgent.class);

    private final HostSampler sampler;
    private final long intervalMs;
    private final Clock clock;
    private final int capacity;
    private final ArrayDeque<Sample> buffer = new ArrayDeque<>();
    private final ObjectMapper json = new ObjectMapper();
    private final HttpServer server;
    private final byte[] secret;
    private final ExecutorService executor;
    private final Thread thread;
    private volatile boolean stopping;

    private MonitorAgent(
            InetSocketAddress listen,
            HostSampler sampler,
            long intervalMs,
            Clock clock,
            Duration retention,
            String secret,
            SSLContext tls)
            throws IOException {
        if (intervalMs <= 0) {
            throw new IllegalArgumentException("interval must be positive: " + intervalMs);
        }
        this.sampler = sampler;
        this.secret = secret == null ? null : ("Bearer " + secret).getBytes(StandardCharsets.UTF_8);
        this.intervalMs = intervalMs;
        this.clock = clock;
        this.capacity = (int) Math.max(16, retention.toMillis() / intervalMs);
        if (tls == null) {
            this.server = HttpServer.create(listen, 0);
        } else {
            HttpsServer https = HttpsServer.create(listen, 0);
            https.setHttpsConfigurator(new HttpsConfigurator(tls));
            this.server = https;
        }
        this.executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "ivs-monitor-agent-http");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.createContext("/time", this::time);
        server.createContext("/samples", this::samples);
        this.thread = new Thread(this::loop, "ivs-monitor-agent");
        this.thread.setDaemon(true);
    }

    /**
     * Starts sampling and serving. {@code clock} is the agent's own wall clock (injectable so tests can skew
     * it); port 0 picks a free port, see {@link #address()}.
     */
    public static MonitorAgent start(
            InetSocketAddress listen, HostSampler sampler, long intervalMs, Clock clock, Duration retention)
            throws IOException {
        return start(listen, sampler, intervalMs, clock, retention, null);
    }

    /** As above; with a non-null {@code secret} only requests that carry it are answered. */
    public static MonitorAgent start(
            InetSocketAddress listen,
            HostSampler sampler,
            long intervalMs,
            Clock clock,
            Duration retention,
            String secret)
            throws IOException {
        return start(listen, sampler, intervalMs, clock, retention, secret, null);
    }

    /** As above; with a non-null {@code tls} it serves HTTPS only ({@link AgentTls#serverContext}). */
    public static MonitorAgent start(
            InetSocketAddress listen,
            HostSampler sampler,
            long intervalMs,
            Clock clock,
            Duration retention,
            String secret,
            SSLContext tls)
            throws IOException {
        MonitorAgent agent = new MonitorAgent(listen, sampler, intervalMs, clock, retention, secret, tls);
        agent.sampler.sample(); // baseline
        agent.thread.start();
        agent.server.start();
        return agent;
    }

    public InetSocketAddress address() {
        return server.getAddress();
    }

    /**
     * Samples and serves until the JVM is stopped (the monitor-agent command, cli/MonitorAgentCommand, checks
     * the options). Returns 1 when it cannot listen, 0 after a normal stop.
     */
    public static int serve(
            InetSocketAddress listen,
            HostSampler sampler,
            long intervalMs,
            Duration retention,
            String secret,
            SSLContext tls,
            PrintStream out,
            PrintStream err) {
        MonitorAgent agent;
        try {
            agent = start(listen, sampler, intervalMs, Clock.systemUTC(), retention, secret, tls);
        } catch (IOException e) {
            err.println("monitor-agent: cannot listen on " + listen + ": " + e.getMessage());
            return 1;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            agent.close();
                            stopped.countDown();
                        },
                        "ivs-monitor-agent-stop"));
        out.println("monitor-agent listening on " + agent.address() + (tls == null ? " (plain HTTP)" : " (HTTPS)")
                + ", interval " + intervalMs + " ms"
                + (secret == null ? ", no secret (anyone who reaches the port can read)" : ", secret required"));
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            agent.close();
        }
        return 0;
    }

    /** True when the request may be answered; otherwise a 401 has been sent. */
    private boolean authorized(HttpExchange exchange) throws IOException {
        if (secret == null) {
            return true;
        }
        String given = exchange.getRequestHeaders().getFirst("Authorization");
        byte[] bytes = given == null ? new byte[0] : given.getBytes(StandardCharsets.UTF_8);
        if (MessageDigest.isEqual(secret, bytes)) {
            return true;
        }
        try (exchange) {
            exchange.getResponseHeaders().set("WWW-Authenticate", "Bearer");
            exchange.sendResponseHeaders(401, -1);
        }
        return false;
    }

    private void loop() {
        long previous = Math.floorDiv(clock.millis(), intervalMs) * intervalMs;
        long next = previous + intervalMs;
        while (!stopping) {
            long wait = next - clock.millis();
            if (wait > 0) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(wait));
                continue;
            }
            try {
                Map<String, Double> metrics = sampler.sample();
                // A sample covers [previous tick, now); after a stall that can be longer than one interval, and
                // its time is the aligned start so clients can map it onto their windows.
                Sample s = new Sample(previous, intervalMs, metrics);
                synchronized (buffer) {
                    buffer.addLast(s);
                    while (buffer.size() > capacity) {
                        buffer.removeFirst();
                    }
                }
            } catch (RuntimeException e) {
                LOG.warn("monitor-agent: sampling failed: {}", e.toString());
            }
            previous = Math.floorDiv(clock.millis(), intervalMs) * intervalMs;
            next = previous + intervalMs;
        }
    }

    private void time(HttpExchange exchange) throws IOException {
        if (!authorized(exchange)) {
            return;
        }
        respond(exchange, Map.of("time_ms", clock.millis()));
    }

    private void samples(HttpExchange exchange) throws IOException {
        if (!authorized(exchange)) {
            return;
        }
        long since = Long.MIN_VALUE;
        String query = exchange.getRequestURI().getRawQuery();
        if (query != null) {
            for (String part : query.split("&")) {
                if (part.startsWith("since=")) {
                    try {
                        since = Long.parseLong(part.substring(6));
                    } catch (NumberFormatException e) {
                        exchange.sendResponseHeaders(400, -1);
                        exchange.close();
                        return;
                    }
                }
            }
        }
        List<Map<String, Object>> list = new ArrayList<>();
        synchronized (buffer) {
            for (Sample s : buffer) {
                if (s.timeMs() > since) {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("time_ms", s.timeMs());
                    m.put("interval_ms", s.intervalMs());
                    m.put("metrics", s.metrics());
                    list.add(m);
                }
            }
        }
        respond(exchange, list);
    }

    private void respond(HttpExchange exchange, Object body) throws IOException {
        try (exchange) {
            if (!"GET".equals(exchange.getRequestMethod())) {
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            byte[] bytes = json.writeValueAsBytes(body);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, bytes.length);
            try (OutputStream os = exchange.getResponseBody()) {
                os.write(bytes);
            }
        }
    }

    @Override
    public void close() {
        stopping = true;
        LockSupport.unpark(thread);
        server.stop(0);
        executor.shutdownNow();
    }
}
