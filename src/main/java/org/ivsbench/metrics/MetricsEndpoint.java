package org.ivsbench.metrics;

import java.io.IOException;
import java.net.InetAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.core.metrics.Info;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Unit;

import org.ivsbench.op.Outcome;
import org.ivsbench.run.LiveMetrics;
import org.ivsbench.stats.OperationListener;
import org.ivsbench.stats.RunInfo;

/**
 * The --metrics-listen endpoint: serves the invocation's measured runs as OpenMetrics/Prometheus text (the Prometheus
 * Java client's registry, exposition and HTTP server) while they go on. Its counters are fed by the same calls that
 * fill summary.json ({@link OperationListener}), so after a run they equal its totals. After the work, {@link
 * #awaitFinalScrape} keeps serving the final values until one scrape has been answered, or the linger has passed.
 * The metrics are listed in docs/prometheus.md.
 */
public final class MetricsEndpoint implements LiveMetrics, AutoCloseable {
    private static final String[] OUTCOMES =
            List.of(Outcome.values()).stream().map(Outcome::label).toArray(String[]::new);

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final Counter operations;
    private final Counter missed;
    private final Counter warmup;
    private final Histogram responseTime;
    private final Gauge currentPhase;
    private final Gauge epoch;
    private final Info epochMode;
    private final Info runInfo;
    private final String mode;
    private final HTTPServer server;
    private final CountDownLatch finalScrape = new CountDownLatch(1);
    /** Set by a scrape's collection that saw the end; the scrape counts once its response is written. */
    private final ThreadLocal<Boolean> sawEnd = ThreadLocal.withInitial(() -> false);

    private volatile boolean ended;

    private MetricsEndpoint(ListenAddress listen, String mode) throws IOException {
        this.mode = mode;
        operations = Counter.builder()
                .name("ivsbench_operations_total")
                .help("Measured operations (warmup excluded) by phase, transaction type and outcome")
                .labelNames("run_id", "phase", "type", "outcome")
                .register(registry);
        missed = Counter.builder()
                .name("ivsbench_missed_arrivals_total")
                .help("Measured arrivals given up as missed (open arrivals that could not start in time)")
                .labelNames("run_id", "phase")
                .register(registry);
        warmup = Counter.builder()
                .name("ivsbench_warmup_operations_total")
                .help("Warmup operations (not in the measured totals)")
                .labelNames("run_id", "phase")
                .register(registry);
        responseTime = Histogram.builder()
                .name("ivsbench_response_time_seconds")
                .help("Response time of measured operations from their intended start, by phase and type")
                .unit(Unit.SECONDS)
                .labelNames("run_id", "phase", "type")
                .classicOnly()
                .classicExponentialUpperBounds(0.0001, 2, 20)
                .withoutExemplars()
                .register(registry);
        currentPhase = Gauge.builder()
                .name("ivsbench_current_phase")
                .help("Index of the phase the run is in (0 first)")
                .labelNames("run_id")
                .register(registry);
        epoch = Gauge.builder()
                .name("ivsbench_experiment_epoch")
                .help("The epoch an experiment is at (1 first)")
                .register(registry);
        epochMode = Info.builder()
                .name("ivsbench_experiment_mode_info")
                .help("The experiment mode the current epoch runs")
                .labelNames("mode")
                .register(registry);
        runInfo = Info.builder()
                .name("ivsbench_run_info")
                .help("One per results folder measured: its benchmark, database kind and the invocation's mode")
                .labelNames("run_id", "benchmark", "database", "mode")
                .register(registry);
        GaugeWithCallback.builder()
                .name("ivsbench_finished")
                .help("1 once the invocation's work has ended and these are the final values")
                .callback(cb -> {
                    if (ended) {
                        sawEnd.set(true);
                    }
                    cb.call(ended ? 1 : 0);
                })
                .register(registry);
        InetAddress address;
        try {
            address = listen.address();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + listen.host() + ":" + listen.port() + "': " + e.getMessage());
        }
        server = HTTPServer.builder()
                .inetAddress(address)
                .port(listen.port())
                .registry(registry)
                .executorService(new ScrapeExecutor())
                .buildAndStart();
    }

    /**
     * Binds {@code listen} and starts serving; {@code mode} is the invocation's run mode (phases, experiment,
     * ...). An {@link IllegalArgumentException} says what is wrong with the address; an IOException that it cannot
     * be bound (in use, not an address of this host).
     */
    public static MetricsEndpoint start(ListenAddress listen, String mode) throws IOException {
        return new MetricsEndpoint(listen, mode);
    }

    /** The port bound (the one chosen when port 0 was asked for). */
    public int port() {
        return server.getPort();
    }

    @Override
    public OperationListener run(String runId, RunInfo info) {
        Map<String, Object> db = info.database();
        Object kind = db.get("type");
        runInfo.addLabelValues(runId, info.benchmark(), kind == null ? "" : kind.toString(), mode);
        return (index, name, types) -> {
            currentPhase.labelValues(runId).set(index);
            return new PhaseCounters(runId, name, types);
        };
    }

    @Override
    public void epoch(int number, String epochMode) {
        epoch.set(number);
        this.epochMode.setLabelValues(epochMode);
    }

    /**
     * The work has ended: from now on a scrape serves {@code ivsbench_finished 1}. Waits until one such scrape has
     * been answered or {@code lingerSeconds} have passed; returns whether a scrape came.
     */
    public boolean awaitFinalScrape(long lingerSeconds) throws InterruptedException {
        ended = true;
        return lingerSeconds > 0 && finalScrape.await(lingerSeconds, TimeUnit.SECONDS);
    }

    @Override
    public void close() {
        server.close();
    }

    /** One phase's data points, looked up once: recording is an add to each (constant memory). */
    private final class PhaseCounters implements OperationListener.PhaseListener {
        private final CounterDataPoint[][] byOutcome;
        private final DistributionDataPoint[] latency;
        private final CounterDataPoint missedArrivals;
        private final CounterDataPoint warmupOps;

        PhaseCounters(String runId, String phase, List<String> types) {
            byOutcome = new CounterDataPoint[types.size()][OUTCOMES.length];
            latency = new DistributionDataPoint[types.size()];
            for (int t = 0; t < types.size(); t++) {
                for (int o = 0; o < OUTCOMES.length; o++) {
                    byOutcome[t][o] = operations.labelValues(runId, phase, types.get(t), OUTCOMES[o]);
                }
                latency[t] = responseTime.labelValues(runId, phase, types.get(t));
            }
            missedArrivals = missed.labelValues(runId, phase);
            warmupOps = warmup.labelValues(runId, phase);
        }

        @Override
        public void recorded(int type, Outcome outcome, long responseNanos) {
            byOutcome[type][outcome.ordinal()].inc();
            latency[type].observe(Math.max(0, responseNanos) / 1e9);
        }

        @Override
        public void missed() {
            missedArrivals.inc();
        }

        @Override
        public void warmup() {
            warmupOps.inc();
        }
    }

    /**
     * The HTTP server's one thread: a scrape whose collection saw the end counts as the final one once its handler
     * has returned (its response written), so the process never exits in the middle of that answer.
     */
    private final class ScrapeExecutor extends ThreadPoolExecutor {
        ScrapeExecutor() {
            super(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), r -> {
                Thread t = new Thread(r, "ivsbench-metrics");
                t.setDaemon(true);
                return t;
            });
        }

        @Override
        protected void afterExecute(Runnable r, Throwable t) {
            super.afterExecute(r, t);
            if (sawEnd.get()) {
                sawEnd.set(false);
                finalScrape.countDown();
            }
        }
    }
}
