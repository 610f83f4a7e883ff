package org.ivsbench.monitor;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What the monitor costs: CPU time of the sampling thread per sample (read /proc, compute, write and flush a
 * monitor.csv row), measured with the thread's own CPU clock so waiting does not count.
 *
 * <pre>java -cp target/benchbase.jar org.ivsbench.monitor.MonitorOverhead [--samples 60] [--interval 1000]
 *      [--fast 2000] [--pid PID | --process-name NAME]</pre>
 *
 * Paced mode takes {@code --samples} samples at the monitor's interval (cold caches between samples, as in a
 * run); fast mode takes {@code --fast} samples back to back after a warm-up (the steady-state cost). Database
 * counters are not included: their cost is the server's (one SHOW GLOBAL STATUS per interval).
 */
public final class MonitorOverhead {

    public record Result(int samples, double cpuUsPerSample, double wallUsPerSample, double cpuUsP50, double cpuUsMax) {
        /** Share of one core at the given interval. */
        public double corePct(long intervalMs) {
            return 100.0 * cpuUsPerSample / (intervalMs * 1000.0);
        }
    }

    private MonitorOverhead() {
    }

    public static Result measure(HostSampler sampler, int samples, long intervalMs, Path scratchCsv) throws IOException {
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
        return new Result(samples, sum / samples / 1000.0, wallTotal / (double) samples / 1000.0,
                sorted[samples / 2] / 1000.0, sorted[samples - 1] / 1000.0);
    }

    public static void main(String[] args) throws IOException {
        int samples = 60;
        long interval = 1000;
        int fast = 2000;
        ProcessLocator process = ProcessLocator.pid(ProcessHandle.current().pid());
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--samples" -> samples = Integer.parseInt(args[i + 1]);
                case "--interval" -> interval = Long.parseLong(args[i + 1]);
                case "--fast" -> fast = Integer.parseInt(args[i + 1]);
                case "--pid" -> process = ProcessLocator.pid(Long.parseLong(args[i + 1]));
                case "--process-name" -> process = ProcessLocator.processName(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        PrintStream out = System.out;
        Path scratch = Files.createTempFile("ivs-monitor-overhead", ".csv");
        try {
            ProcSampler sampler = ProcSampler.local(process);
            int columns = sampler.sample().size();
            out.printf(Locale.ROOT, "monitor overhead: %d columns per row, %s cores%n", columns,
                    Runtime.getRuntime().availableProcessors());
            if (fast > 0) {
                measure(sampler, Math.min(fast, 500), 0, scratch); // warm-up: JIT
                Result r = measure(sampler, fast, 0, scratch);
                out.printf(Locale.ROOT, "fast (back to back, %d samples): cpu %.1f us/sample (p50 %.1f, max %.1f), wall %.1f us%n",
                        r.samples(), r.cpuUsPerSample(), r.cpuUsP50(), r.cpuUsMax(), r.wallUsPerSample());
            }
            if (samples > 0) {
                Result r = measure(sampler, samples, interval, scratch);
                out.printf(Locale.ROOT, "paced (%d samples every %d ms): cpu %.1f us/sample (p50 %.1f, max %.1f), wall %.1f us"
                        + " = %.4f%% of one core%n", r.samples(), interval, r.cpuUsPerSample(), r.cpuUsP50(), r.cpuUsMax(),
                        r.wallUsPerSample(), r.corePct(interval));
            }
        } finally {
            Files.deleteIfExists(scratch);
        }
    }
}
