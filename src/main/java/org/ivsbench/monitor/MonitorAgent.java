package org.ivsbench.monitor;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.URI;
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

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server-side half of remote monitoring: runs on the database host, samples /proc continuously at its
 * clock's interval boundaries into a bounded ring buffer (one hour by default), and serves
 * {@code GET /time} ({@code {"time_ms": n}}) and {@code GET /samples?since=<agent ms>} (a JSON list of the samples
 * whose {@code time_ms} is greater, oldest first). Sampling does not depend on a client being connected, so a
 * client that polls late or reconnects loses nothing younger than the buffer.
 *
 * <p>Plain HTTP. With {@code --secret-file} every request must carry {@code Authorization: Bearer <secret>} (the
 * file's first line; compared in constant time) or gets 401 and no data; the secret travels unencrypted, so
 * it keeps out other users of a private network, not an eavesdropper. Without it anyone who can reach the
 * port reads the samples: listen on loopback or a private network (the default is 127.0.0.1).
 */
public final class MonitorAgent implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MonitorAgent.class);
    private static final String USAGE = "usage: monitor-agent --listen HOST:PORT [--pid-file FILE | --process-name NAME]"
            + " [--interval MS] [--retention SECONDS] [--secret-file FILE]";

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

    private MonitorAgent(InetSocketAddress listen, HostSampler sampler, long intervalMs, Clock clock,
            Duration retention, String secret) throws IOException {
        if (intervalMs <= 0) {
            throw new IllegalArgumentException("interval must be positive: " + intervalMs);
        }
        this.sampler = sampler;
        this.secret = secret == null ? null : ("Bearer " + secret).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        this.intervalMs = intervalMs;
        this.clock = clock;
        this.capacity = (int) Math.max(16, retention.toMillis() / intervalMs);
        this.server = HttpServer.create(listen, 0);
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
    public static MonitorAgent start(InetSocketAddress listen, HostSampler sampler, long intervalMs, Clock clock,
            Duration retention) throws IOException {
        return start(listen, sampler, intervalMs, clock, retention, null);
    }

    /** As above; with a non-null {@code secret} only requests that carry it are answered. */
    public static MonitorAgent start(InetSocketAddress listen, HostSampler sampler, long intervalMs, Clock clock,
            Duration retention, String secret) throws IOException {
        MonitorAgent agent = new MonitorAgent(listen, sampler, intervalMs, clock, retention, secret);
        agent.sampler.sample(); // baseline
        agent.thread.start();
        agent.server.start();
        return agent;
    }

    public InetSocketAddress address() {
        return server.getAddress();
    }

    /**
     * Command-line entry ({@code java -jar benchbase.jar monitor-agent ...}): runs until the JVM is stopped.
     * Returns 2 on a usage error, 1 when it cannot listen, 0 after a normal stop.
     */
    public static int run(String[] args) {
        return run(args, System.out, System.err, Clock.systemUTC());
    }

    static int run(String[] args, PrintStream out, PrintStream err, Clock clock) {
        String listen = null;
        String pidFile = null;
        String processName = null;
        long interval = 1000;
        long retentionSeconds = 3600;
        String secretFile = null;
        String secret = null;
        try {
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                if (a.equals("-h") || a.equals("--help")) {
                    out.println(USAGE);
                    return 0;
                }
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException(a + " needs a value");
                }
                String v = args[++i];
                switch (a) {
                    case "--listen" -> listen = v;
                    case "--pid-file" -> pidFile = v;
                    case "--process-name" -> processName = v;
                    case "--interval" -> interval = Long.parseLong(v);
                    case "--retention" -> retentionSeconds = Long.parseLong(v);
                    case "--secret-file" -> secretFile = v;
                    default -> throw new IllegalArgumentException("unknown option " + a);
                }
            }
            if (listen == null) {
                throw new IllegalArgumentException("--listen is required");
            }
            if (pidFile != null && processName != null) {
                throw new IllegalArgumentException("give --pid-file or --process-name, not both");
            }
            if (interval <= 0 || retentionSeconds <= 0) {
                throw new IllegalArgumentException("--interval and --retention must be positive");
            }
            if (secretFile != null) {
                secret = readSecret(secretFile);
            }
        } catch (IllegalArgumentException e) {
            err.println("monitor-agent: " + e.getMessage());
            err.println(USAGE);
            return 2;
        }
        InetSocketAddress address;
        try {
            URI uri = URI.create("tcp://" + listen);
            if (uri.getHost() == null || uri.getPort() < 0) {
                throw new IllegalArgumentException(listen);
            }
            address = new InetSocketAddress(uri.getHost(), uri.getPort());
        } catch (IllegalArgumentException e) {
            err.println("monitor-agent: --listen must be HOST:PORT, got " + listen);
            return 2;
        }
        MonitorAgent agent;
        try {
            agent = start(address, ProcSampler.local(ProcessLocator.of(pidFile, processName)), interval, clock,
                    Duration.ofSeconds(retentionSeconds), secret);
        } catch (IOException e) {
            err.println("monitor-agent: cannot listen on " + listen + ": " + e.getMessage());
            return 1;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            agent.close();
            stopped.countDown();
        }, "ivs-monitor-agent-stop"));
        out.println("monitor-agent listening on " + agent.address() + ", interval " + interval + " ms"
                + (secret == null ? ", no secret (anyone who reaches the port can read)" : ", secret required"));
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            agent.close();
        }
        return 0;
    }

    /** The first line of the file; the message names the file, never its content. */
    private static String readSecret(String file) {
        String line;
        try (java.io.BufferedReader r = java.nio.file.Files.newBufferedReader(java.nio.file.Path.of(file),
                java.nio.charset.StandardCharsets.UTF_8)) {
            line = r.readLine();
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("--secret-file: cannot read '" + file + "': " + e.getClass().getSimpleName());
        }
        if (line == null || line.isEmpty()) {
            throw new IllegalArgumentException("--secret-file: '" + file + "' is empty (its first line is the secret)");
        }
        return line;
    }

    /** True when the request may be answered; otherwise a 401 has been sent. */
    private boolean authorized(HttpExchange exchange) throws IOException {
        if (secret == null) {
            return true;
        }
        String given = exchange.getRequestHeaders().getFirst("Authorization");
        byte[] bytes = given == null ? new byte[0] : given.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        if (java.security.MessageDigest.isEqual(secret, bytes)) {
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
