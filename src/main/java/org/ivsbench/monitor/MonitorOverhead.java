package org.ivsbench.monitor;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

import org.ivsbench.config.TargetConfig;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetKind;
import org.ivsbench.db.TargetKinds;

/**
 * What the monitor costs: CPU time of the sampling thread per sample (read /proc, compute, write and flush a
 * monitor.csv row), measured with the thread's own CPU clock so waiting does not count.
 *
 * <p>Run as {@code java -jar benchbase.jar monitor-overhead} (cli/MonitorOverheadCommand holds the options).
 * Paced mode takes {@code --samples} samples at the monitor's interval (cold caches between samples, as in a
 * run); fast mode takes {@code --fast} samples back to back after a warm-up (the steady-state cost).
 *
 * <p>With {@code --db-url} every mode is measured twice, without and then with the database counters read as a
 * run reads them (the target's kept connection, the default selection, deltas): the second figure is the
 * monitor thread's whole client-side cost. The server's share (answering SHOW GLOBAL STATUS / serverStatus) is
 * on another process: with {@code --server-process}/{@code --server-pid} the fast mode also reports that
 * process's CPU during the counter reads minus its CPU during an equally long idle pause right after, per read.
 * On a server others use at the same time that difference is noise-prone; it is printed with both parts. The
 * password is read from the environment variable named by {@code --db-password-env}, never from the command line.
 */
public final class MonitorOverhead {

    public record Result(int samples, double cpuUsPerSample, double wallUsPerSample, double cpuUsP50, double cpuUsMax) {
        /** Share of one core at the given interval. */
        public double corePct(long intervalMs) {
            return 100.0 * cpuUsPerSample / (intervalMs * 1000.0);
        }
    }

    private MonitorOverhead() {}

    public static Result measure(HostSampler sampler, int samples, long intervalMs, Path scratchCsv)
            throws IOException {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long[] cpu = new long[samples];
        long wallTotal = 0;
        try (MonitorCsvWriter csv = new MonitorCsvWriter(scratchCsv)) {
            sampler.sample(); // baseline
            for (int i = 0; i < samples; i++) {
                if (intervalMs > 0) {
                    long wait = intervalMs - Math.floorMod(System.currentTimeMillis(), intervalMs);
                    try {
                        TimeUnit.MILLISECONDS.sleep(wait);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        break;
                    }
                }
                long c0 = mx.getCurrentThreadCpuTime();
                long w0 = System.nanoTime();
                Map<String, Double> m = sampler.sample();
                csv.write(System.currentTimeMillis(), Math.max(1, intervalMs), -1, "local", m);
                wallTotal += System.nanoTime() - w0;
                cpu[i] = mx.getCurrentThreadCpuTime() - c0;
            }
        }
        long[] sorted = cpu.clone();
        Arrays.sort(sorted);
        double sum = Arrays.stream(cpu).sum();
        return new Result(
                samples,
                sum / samples / 1000.0,
                wallTotal / (double) samples / 1000.0,
                sorted[samples / 2] / 1000.0,
                sorted[samples - 1] / 1000.0);
    }

    /**
     * What to measure (the monitor-overhead command's options): {@code process} is what proc.* watch,
     * {@code server} the database server process whose CPU the fast mode also reports (or null), {@code dbUrl}
     * null for host columns only; the password is read from the environment variable {@code dbPasswordEnv}.
     */
    public record Settings(
            int samples,
            long intervalMs,
            int fast,
            ProcessLocator process,
            ProcessLocator server,
            String dbUrl,
            String dbUser,
            String dbPasswordEnv) {}

    /** Measures as {@code settings} says and prints one line per figure to {@code out}. */
    public static void run(Settings settings, PrintStream out) throws Exception {
        int samples = settings.samples();
        long interval = settings.intervalMs();
        int fast = settings.fast();
        ProcessLocator process = settings.process();
        ProcessLocator server = settings.server();
        String dbUrl = settings.dbUrl();
        String dbUser = settings.dbUser();
        String dbPasswordEnv = settings.dbPasswordEnv();
        Path scratch = Files.createTempFile("ivs-monitor-overhead", ".csv");
        Target target = null;
        try {
            ProcSampler host = ProcSampler.local(process);
            out.printf(
                    Locale.ROOT,
                    "monitor overhead: %d host columns per row, %s cores, load average %s%n",
                    host.sample().size(),
                    Runtime.getRuntime().availableProcessors(),
                    loadAverage());
            HostSampler withDb = null;
            if (dbUrl != null) {
                String password = dbPasswordEnv == null ? null : System.getenv(dbPasswordEnv);
                TargetKind kind = kindOf(dbUrl);
                target = kind.open(
                        new TargetConfig(kind.names().get(0), null, dbUrl, dbUser, password, null, false, Map.of()));
                DbCounterSampler db = new DbCounterSampler(CounterSource.of(target), CounterSelection.defaults(kind));
                withDb = () -> {
                    Map<String, Double> m = new LinkedHashMap<>(host.sample());
                    m.putAll(db.sample());
                    return m;
                };
                out.printf(
                        Locale.ROOT,
                        "database counters: %s, %d db.* columns per row%n",
                        kind.displayName(),
                        db.sample().size());
            }
            if (fast > 0) {
                measure(host, Math.min(fast, 500), 0, scratch); // warm-up: JIT
                printFast(out, "host", measure(host, fast, 0, scratch));
                if (withDb != null) {
                    measure(withDb, Math.min(fast, 500), 0, scratch); // warm-up: JIT, driver
                    long[] before = serverTicks(server);
                    long t0 = System.nanoTime();
                    Result r = measure(withDb, fast, 0, scratch);
                    long busyNs = System.nanoTime() - t0;
                    long[] after = serverTicks(server);
                    printFast(out, "host + db counters", r);
                    if (before != null && after != null) {
                        // The same wall time with no reads: what the server spent meanwhile on everyone else.
                        TimeUnit.NANOSECONDS.sleep(busyNs);
                        long[] idle = serverTicks(server);
                        if (idle != null) {
                            double during = (after[0] - before[0]) * 1e6 / CLK_TCK;
                            double pause = (idle[0] - after[0]) * 1e6 / CLK_TCK;
                            out.printf(
                                    Locale.ROOT,
                                    "  server process cpu: %.1f us/read during the reads, %.1f us per"
                                            + " same time idle, difference %.1f us/read (%.1f s each, %d ticks/s resolution)%n",
                                    during / fast,
                                    pause / fast,
                                    (during - pause) / fast,
                                    busyNs / 1e9,
                                    CLK_TCK);
                        }
                    }
                }
            }
            if (samples > 0) {
                printPaced(out, "host", measure(host, samples, interval, scratch), interval);
                if (withDb != null) {
                    printPaced(out, "host + db counters", measure(withDb, samples, interval, scratch), interval);
                }
            }
        } finally {
            if (target != null) {
                target.close();
            }
            Files.deleteIfExists(scratch);
        }
    }

    /** USER_HZ: fixed at 100 by the Linux ABI (as ProcSampler assumes). */
    private static final long CLK_TCK = 100;

    private static void printFast(PrintStream out, String what, Result r) {
        out.printf(
                Locale.ROOT,
                "fast, %s (back to back, %d samples): cpu %.1f us/sample (p50 %.1f, max %.1f)," + " wall %.1f us%n",
                what,
                r.samples(),
                r.cpuUsPerSample(),
                r.cpuUsP50(),
                r.cpuUsMax(),
                r.wallUsPerSample());
    }

    private static void printPaced(PrintStream out, String what, Result r, long interval) {
        out.printf(
                Locale.ROOT,
                "paced, %s (%d samples every %d ms): cpu %.1f us/sample (p50 %.1f, max %.1f),"
                        + " wall %.1f us = %.4f%% of one core%n",
                what,
                r.samples(),
                interval,
                r.cpuUsPerSample(),
                r.cpuUsP50(),
                r.cpuUsMax(),
                r.wallUsPerSample(),
                r.corePct(interval));
    }

    /** The kind of a server database whose URL this is (an embedded one has no server to measure). */
    static TargetKind kindOf(String url) {
        return TargetKinds.forUrl(url.toLowerCase(Locale.ROOT))
                .filter(k -> k.serverProcess().isPresent())
                .orElseThrow(() -> new IllegalArgumentException("--db-url: a server database's URL, one of: "
                        + String.join(
                                ", ",
                                TargetKinds.all().stream()
                                        .filter(k -> k.serverProcess().isPresent())
                                        .flatMap(k -> k.urlPrefixes().stream())
                                        .toList())));
    }

    /** utime + stime of the server process in clock ticks, or null (no process given or found). */
    private static long[] serverTicks(ProcessLocator server) {
        if (server == null) {
            return null;
        }
        OptionalLong pid = server.locate();
        if (pid.isEmpty()) {
            return null;
        }
        try {
            String s = Files.readString(Path.of("/proc", Long.toString(pid.getAsLong()), "stat"));
            String[] f = s.substring(s.lastIndexOf(')') + 1).trim().split("\\s+");
            return new long[] {Long.parseLong(f[11]) + Long.parseLong(f[12])};
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "unknown";
        }
    }
}
