package org.ivsbench.monitor;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.ivsbench.config.AgentTlsConfig;
import org.ivsbench.config.MonitorConfig;

/**
 * Samples the database host and the database's counters every {@code intervalMs} and streams monitor.csv.
 *
 * <p>A daemon thread wakes at wall-clock multiples of the interval (the boundaries of samples.csv windows),
 * so each row covers one client window: {@code time_ms} is the aligned start of the span it measured. The
 * first row covers [start, first boundary) and the last [last boundary, close): partial windows, with rates
 * over their real length and counter deltas over exactly that span, so the rows sum to the whole run.
 *
 * <p>In-process ({@code config.agent() == null}) it reads this host's /proc. With an agent it pulls the
 * agent's samples, moves them onto this clock ({@link AgentClient}) and writes each window two intervals
 * late, when the agent's sample for it has surely arrived; database counters are still read here, through
 * the target, on this clock.
 *
 * <p>Nothing escapes the sampling thread: a failed read leaves cells empty and is logged once.
 */
public final class ResourceMonitor implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ResourceMonitor.class);
    /** monitor.csv's source for rows sampled in this process (see RunMonitor for "client"). */
    static final String LOCAL_SOURCE = "local";

    private final long intervalMs;
    private final HostSampler host; // null with an agent
    private final AgentClient agent; // null in-process
    private final ClientCpu clientCpu = new ClientCpu();
    private final DbCounterSampler db; // null without a counter source
    private final IntSupplier currentPhase;
    private final String localSource;
    private final MonitorCsvWriter csv;
    private final Thread thread;
    private final Map<String, Boolean> loggedFailures = new HashMap<>();
    /** Agent mode: windows waiting for the agent's sample, by aligned start. */
    private final TreeMap<Long, PendingRow> pending = new TreeMap<>();

    private volatile boolean stopping;
    private long previousSampleMs;
    private int previousPhase;
    private long startWindow;
    private long lastWrittenWindow = Long.MIN_VALUE;

    private ResourceMonitor(
            MonitorConfig config,
            HostSampler host,
            AgentClient agent,
            CounterSource counters,
            CounterSelection selection,
            Path monitorCsv,
            IntSupplier currentPhase,
            String localSource)
            throws IOException {
        this.intervalMs = config.intervalMs();
        if (intervalMs <= 0) {
            throw new IllegalArgumentException("monitor interval must be positive: " + intervalMs);
        }
        this.host = host;
        this.agent = agent;
        this.db = counters == null ? null : new DbCounterSampler(counters, selection);
        this.currentPhase = currentPhase == null ? () -> -1 : currentPhase;
        this.localSource = localSource;
        this.csv = new MonitorCsvWriter(monitorCsv);
        this.thread = new Thread(this::loop, "ivs-monitor");
        this.thread.setDaemon(true);
    }

    public static ResourceMonitor start(
            MonitorConfig config,
            CounterSource counters,
            CounterSelection selection,
            Path monitorCsv,
            IntSupplier currentPhase)
            throws IOException {
        return start(
                config,
                ProcessLocator.of(config.pidFile(), config.processName()),
                counters,
                selection,
                monitorCsv,
                currentPhase,
                LOCAL_SOURCE);
    }

    /**
     * As above, with the database server's process found by {@code process} (in-process sampling only) and
     * {@code localSource} the source column of in-process rows ("local", or "client" for a remote database).
     */
    public static ResourceMonitor start(
            MonitorConfig config,
            ProcessLocator process,
            CounterSource counters,
            CounterSelection selection,
            Path monitorCsv,
            IntSupplier currentPhase,
            String localSource)
            throws IOException {
        HostSampler host = null;
        AgentClient agent = null;
        if (config.agent() == null || config.agent().isBlank()) {
            host = ProcSampler.local(process);
        } else {
            agent = new AgentClient(config.agent(), config.agentSecret(), tls(config.agentTls()));
        }
        return start(config, host, agent, counters, selection, monitorCsv, currentPhase, localSource);
    }

    /** HTTPS to the agent: the configured trust store, else the JDK's; null for plain HTTP. */
    private static SSLContext tls(AgentTlsConfig tls) {
        if (tls == null) {
            return null;
        }
        if (tls.trustStore() == null) {
            return AgentTls.defaultClientContext();
        }
        String password = tls.trustStorePassword();
        return AgentTls.clientContext(Path.of(tls.trustStore()), password == null ? null : password.toCharArray());
    }

    /** For tests and tools: any host sampler (in-process) or agent client (then {@code host} is ignored). */
    static ResourceMonitor start(
            MonitorConfig config,
            HostSampler host,
            AgentClient agent,
            CounterSource counters,
            CounterSelection selection,
            Path monitorCsv,
            IntSupplier currentPhase)
            throws IOException {
        return start(config, host, agent, counters, selection, monitorCsv, currentPhase, LOCAL_SOURCE);
    }

    static ResourceMonitor start(
            MonitorConfig config,
            HostSampler host,
            AgentClient agent,
            CounterSource counters,
            CounterSelection selection,
            Path monitorCsv,
            IntSupplier currentPhase,
            String localSource)
            throws IOException {
        ResourceMonitor m = new ResourceMonitor(
                config, agent == null ? host : null, agent, counters, selection, monitorCsv, currentPhase, localSource);
        m.prime();
        m.thread.start();
        return m;
    }

    /** Baselines taken now, so the first row already has every column and covers [start, first boundary). */
    private void prime() {
        Map<String, Double> first = new LinkedHashMap<>(clientCpu.sample());
        if (host != null) {
            first.putAll(guard("host", host::sample));
        }
        if (agent != null) {
            try {
                // The first round trips include connection set-up and cold code: take a few, keep the tightest.
                for (int i = 0; i < 5; i++) {
                    agent.measureOffset();
                }
                LOG.info(
                        "monitor agent {}: clock offset {} ms (round trip {} ms)",
                        agent,
                        Math.round(agent.offsetMs()),
                        String.format(Locale.ROOT, "%.1f", agent.offsetRoundTripMs()));
                // The latest samples name the agent's columns; they predate the run and are not written.
                for (Sample s : agent.fetchNew(3 * intervalMs + 1000)) {
                    first.putAll(s.metrics());
                }
            } catch (Exception e) {
                logOnce("agent", e);
            }
        }
        if (db != null) {
            first.putAll(guard("db", db::sample));
        }
        csv.declare(first.keySet());
        previousSampleMs = System.currentTimeMillis();
        previousPhase = currentPhase.getAsInt();
        startWindow = alignDown(previousSampleMs);
    }

    private void loop() {
        long next = alignDown(System.currentTimeMillis()) + intervalMs;
        while (!stopping) {
            long wait = next - System.currentTimeMillis();
            if (wait > 0) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(wait));
                continue;
            }
            try {
                tick(false);
            } catch (Throwable t) {
                logOnce("tick", t);
            }
            // After a stall (suspended VM, long GC) skip to the next boundary instead of firing a burst.
            next = Math.max(next + intervalMs, alignDown(System.currentTimeMillis()) + intervalMs);
        }
    }

    private synchronized void tick(boolean last) {
        long now = System.currentTimeMillis();
        long window = alignDown(previousSampleMs);
        int endPhase = currentPhase.getAsInt();
        int phase = endPhase >= 0 ? endPhase : previousPhase;
        Map<String, Double> metrics = new LinkedHashMap<>(clientCpu.sample());
        if (host != null) {
            metrics.putAll(guard("host", host::sample));
        }
        if (db != null) {
            metrics.putAll(guard("db", db::sample));
        }
        previousSampleMs = now;
        previousPhase = endPhase;
        if (agent == null) {
            write(window, phase, localSource, metrics);
            return;
        }
        pending.computeIfAbsent(window, w -> new PendingRow()).local(phase, metrics);
        try {
            agent.measureOffset();
            for (Sample s : agent.fetchNew(3 * intervalMs + 1000)) {
                long w = AgentClient.window(s, intervalMs);
                if (w >= startWindow && w > lastWrittenWindow) {
                    pending.computeIfAbsent(w, k -> new PendingRow()).agent(s.metrics());
                }
            }
        } catch (Exception e) {
            logOnce("agent", e);
        }
        // The agent's sample for window w ends by w + 1.5 intervals on our clock and is fetched at the next
        // tick; two intervals of delay are enough, and the final flush writes the rest.
        long writeUpTo = last ? Long.MAX_VALUE : alignDown(now) - 2 * intervalMs;
        while (!pending.isEmpty() && pending.firstKey() <= writeUpTo) {
            Map.Entry<Long, PendingRow> e = pending.pollFirstEntry();
            PendingRow row = e.getValue();
            write(e.getKey(), row.phase != Integer.MIN_VALUE ? row.phase : phase, "agent", row.merged());
        }
    }

    private void write(long window, int phase, String source, Map<String, Double> metrics) {
        if (window <= lastWrittenWindow) {
            return; // only possible after a clock step backwards; one row per window keeps the file sorted
        }
        csv.write(window, intervalMs, phase, source, metrics);
        lastWrittenWindow = window;
    }

    private long alignDown(long ms) {
        return Math.floorDiv(ms, intervalMs) * intervalMs;
    }

    private Map<String, Double> guard(String what, Supplier<Map<String, Double>> sampler) {
        try {
            return sampler.get();
        } catch (RuntimeException e) {
            logOnce(what, e);
            return Map.of();
        }
    }

    private void logOnce(String what, Throwable t) {
        if (loggedFailures.putIfAbsent(what, Boolean.TRUE) == null) {
            LOG.warn("monitor: {} sampling failed, its cells stay empty (logged once): {}", what, t.toString());
        }
    }

    /** The estimated agent-minus-client clock offset in ms (NaN in-process). */
    public double agentOffsetMs() {
        return agent == null ? Double.NaN : agent.offsetMs();
    }

    /** Round trip of the agent clock offset in use, ms: its error bound is half of it (NaN in-process). */
    public double agentOffsetRoundTripMs() {
        return agent == null ? Double.NaN : agent.offsetRoundTripMs();
    }

    /** Takes a final sample (the partial last window), writes every pending row and closes monitor.csv. */
    @Override
    public void close() {
        stopping = true;
        LockSupport.unpark(thread);
        try {
            thread.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            tick(true);
        } catch (RuntimeException e) {
            logOnce("final", e);
        }
        try {
            csv.close();
        } catch (IOException e) {
            LOG.warn("monitor: closing monitor.csv failed: {}", e.toString());
        }
    }

    /** One client window in agent mode: counters read here plus the agent's sample(s) for it. */
    private static final class PendingRow {
        int phase = Integer.MIN_VALUE;
        final Map<String, Double> local = new LinkedHashMap<>();
        final Map<String, Double> agentSum = new LinkedHashMap<>();
        final Map<String, Integer> agentCount = new HashMap<>();

        void local(int p, Map<String, Double> metrics) {
            phase = p;
            local.putAll(metrics);
        }

        /**
         * An agent with a shorter interval than ours puts several samples in one window: rates and percentages
         * are averaged (equal lengths), values (bytes, threads) keep the latest.
         */
        void agent(Map<String, Double> metrics) {
            for (Map.Entry<String, Double> e : metrics.entrySet()) {
                String k = e.getKey();
                Double v = e.getValue();
                if (v == null) {
                    agentSum.putIfAbsent(k, null);
                } else if (k.endsWith("_ps") || k.endsWith("_pct")) {
                    Double s = agentSum.get(k);
                    agentSum.put(k, s == null ? v : s + v);
                    agentCount.merge(k, 1, Integer::sum);
                } else {
                    agentSum.put(k, v);
                }
            }
        }

        Map<String, Double> merged() {
            Map<String, Double> m = new LinkedHashMap<>();
            for (Map.Entry<String, Double> e : agentSum.entrySet()) {
                Integer n = agentCount.get(e.getKey());
                Double v = e.getValue();
                // Not one conditional expression: Double and double operands would unbox a null cell (NPE).
                if (v != null && n != null) {
                    v = v / n;
                }
                m.put(e.getKey(), v);
            }
            m.putAll(local);
            return m;
        }
    }
}
