package org.ivsbench.benchmarks;

import java.util.List;
import java.util.Locale;

import org.ivsbench.op.Outcome;
import org.ivsbench.stats.PhaseStats;

/**
 * What recording one operation costs: {@link PhaseStats#record} (the interval's HdrHistogram recorders, the
 * latency-by-size histogram of the operation's size bucket, a counter and the byte adders, as the engine's Worker
 * calls it) plus the two {@code System.nanoTime()} reads the Worker
 * takes around each operation, in ns per operation, with 1 and 2 recording threads, alternating rounds.
 * A drain thread empties the interval histograms every second, as the statistics collector does.
 *
 * <pre>RecorderCostBench [rounds=3] [secondsPerRound=2]</pre>
 */
public final class RecorderCostBench {
    private RecorderCostBench() {}

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        double seconds = args.length > 1 ? Double.parseDouble(args[1]) : 2;
        System.out.println("# cores=" + Runtime.getRuntime().availableProcessors() + " java="
                + System.getProperty("java.version"));
        System.out.printf(Locale.ROOT, "%-6s %-24s %8s %12s %10s%n", "round", "what", "threads", "ops", "ns/op");
        measure(-1, "warm-up", 1, 1.0, false);
        for (int r = 1; r <= rounds; r++) {
            for (int threads : new int[] {1, 2}) {
                measure(r, "nanoTime x2", threads, seconds, false);
                measure(r, "record + nanoTime x2", threads, seconds, true);
            }
        }
    }

    private static void measure(int round, String what, int threads, double seconds, boolean record)
            throws InterruptedException {
        PhaseStats stats = new PhaseStats(0, "p", List.of("ReadRecord", "ExtendRecord"));
        long[] ops = new long[threads];
        long[] nanos = new long[threads];
        long[] sink = new long[threads];
        Thread[] ts = new Thread[threads];
        long runNanos = (long) (seconds * 1e9);
        for (int i = 0; i < threads; i++) {
            final int id = i;
            ts[i] = new Thread(() -> {
                long t0 = System.nanoTime();
                long deadline = t0 + runNanos;
                long n = 0;
                long acc = 0;
                long now = t0;
                while (now < deadline) {
                    for (int k = 0; k < 1000; k++) {
                        long start = System.nanoTime();
                        long end = System.nanoTime();
                        if (record) {
                            // A spread of plausible latencies (40 us .. 2 ms) so many buckets are touched.
                            long lat = 40_000 + ((n * 7919) & 2047) * 1000 + (end - start);
                            // Sizes over 8 log2 buckets, as a read phase over growing records has them.
                            long size = 100L << (n & 7);
                            stats.record((int) (n & 1), Outcome.OK, lat, lat, size, 0, null, size);
                        } else {
                            acc += end - start;
                        }
                        n++;
                    }
                    now = System.nanoTime();
                }
                ops[id] = n;
                nanos[id] = now - t0;
                sink[id] = acc;
            });
        }
        Thread drain = new Thread(() -> {
            try {
                while (true) {
                    Thread.sleep(1000);
                    stats.drain(System.currentTimeMillis(), 1000);
                }
            } catch (InterruptedException e) {
                // done
            }
        });
        drain.setDaemon(true);
        drain.start();
        for (Thread t : ts) {
            t.start();
        }
        for (Thread t : ts) {
            t.join();
        }
        drain.interrupt();
        drain.join();
        long total = 0;
        double nsPerOp = 0;
        for (int i = 0; i < threads; i++) {
            total += ops[i];
            nsPerOp += (double) nanos[i] / ops[i];
        }
        nsPerOp /= threads; // time per operation as one thread sees it
        if (round >= 0) {
            System.out.printf(Locale.ROOT, "%-6d %-24s %8d %12d %10.1f%n", round, what, threads, total, nsPerOp);
        }
        if (sink[0] == 42) {
            System.out.print("");
        }
    }
}
