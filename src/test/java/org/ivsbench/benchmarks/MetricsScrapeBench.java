package org.ivsbench.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.ivsbench.metrics.ListenAddress;
import org.ivsbench.metrics.MetricsEndpoint;
import org.ivsbench.op.Outcome;
import org.ivsbench.stats.OperationListener;
import org.ivsbench.stats.RunInfo;

/**
 * What the --metrics-listen endpoint costs the client: CPU per scrape of the endpoint's own threads (the HTTP
 * server's dispatcher and its scrape thread: collecting, formatting, writing) and of the whole JVM (which includes
 * the scraping HttpClient here), bytes per scrape, for a run of {@code phases} phases of {@code types} types; then
 * what the one listener call per operation adds to recording (ns per operation, one thread).
 *
 * <pre>MetricsScrapeBench [rounds=3] [scrapes=200] [phases=4] [types=6]</pre>
 */
public final class MetricsScrapeBench {
    private MetricsScrapeBench() {}

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        int scrapes = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        int phases = args.length > 2 ? Integer.parseInt(args[2]) : 4;
        int typeCount = args.length > 3 ? Integer.parseInt(args[3]) : 6;
        List<String> types = new ArrayList<>();
        for (int t = 0; t < typeCount; t++) {
            types.add("Type" + t);
        }
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        System.out.println("# cores=" + Runtime.getRuntime().availableProcessors() + " java="
                + System.getProperty("java.version") + " phases=" + phases + " types=" + typeCount);
        try (MetricsEndpoint endpoint = MetricsEndpoint.start(new ListenAddress("127.0.0.1", 0), "phases")) {
            RunInfo info = new RunInfo("bench", "ycsbivs", Map.of("type", "SQLITE"), "-", 0, 1, 1, List.of());
            OperationListener run = endpoint.run("ycsbivs_bench", info);
            List<OperationListener.PhaseListener> listeners = new ArrayList<>();
            for (int p = 0; p < phases; p++) {
                OperationListener.PhaseListener l = run.phaseOpened(p, "phase" + p, types);
                for (int i = 0; i < 100_000; i++) {
                    l.recorded(i % typeCount, Outcome.values()[i % 4], 50_000L + (i * 7919L) % 20_000_000L);
                }
                listeners.add(l);
            }
            HttpClient http = HttpClient.newHttpClient();
            HttpRequest get = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + endpoint.port() + "/metrics"))
                    .build();
            System.out.printf(
                    Locale.ROOT,
                    "%-6s %8s %10s %18s %16s %12s%n",
                    "round",
                    "scrapes",
                    "bytes",
                    "endpointCPU/scrape",
                    "jvmCPU/scrape",
                    "wall/scrape");
            for (int r = 0; r <= rounds; r++) {
                long bytes = 0;
                long endpoint0 = endpointCpu(threads);
                long jvm0 = os.getProcessCpuTime();
                long wall0 = System.nanoTime();
                for (int s = 0; s < scrapes; s++) {
                    bytes = http.send(get, HttpResponse.BodyHandlers.ofByteArray())
                            .body()
                            .length;
                }
                long wall = System.nanoTime() - wall0;
                long endpointNs = endpointCpu(threads) - endpoint0;
                long jvm = os.getProcessCpuTime() - jvm0;
                System.out.printf(
                        Locale.ROOT,
                        "%-6s %8d %10d %15.0f us %13.0f us %9.0f us%n",
                        r == 0 ? "warmup" : Integer.toString(r),
                        scrapes,
                        bytes,
                        endpointNs / 1e3 / scrapes,
                        jvm / 1e3 / scrapes,
                        wall / 1e3 / scrapes);
            }
            System.out.println("# the listener call per operation (counter add + histogram observe), one thread");
            OperationListener.PhaseListener l = listeners.get(0);
            for (int r = 0; r <= rounds; r++) {
                long n = 5_000_000;
                long t0 = System.nanoTime();
                for (long i = 0; i < n; i++) {
                    l.recorded((int) (i % typeCount), Outcome.OK, 50_000L + (i * 7919L) % 20_000_000L);
                }
                long ns = System.nanoTime() - t0;
                System.out.printf(
                        Locale.ROOT,
                        "%-6s listener.recorded %6.1f ns/op%n",
                        r == 0 ? "warmup" : Integer.toString(r),
                        (double) ns / n);
            }
        }
    }

    /** CPU so far of the endpoint's threads: the JDK HTTP server's dispatcher and the scrape thread. */
    private static long endpointCpu(ThreadMXBean threads) {
        long sum = 0;
        for (ThreadInfo t : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (t != null
                    && (t.getThreadName().equals("HTTP-Dispatcher")
                            || t.getThreadName().equals("ivsbench-metrics"))) {
                long cpu = threads.getThreadCpuTime(t.getThreadId());
                if (cpu > 0) {
                    sum += cpu;
                }
            }
        }
        return sum;
    }
}
