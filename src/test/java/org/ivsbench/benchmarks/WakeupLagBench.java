package org.ivsbench.benchmarks;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.locks.LockSupport;

import org.ivsbench.engine.Clock;

/**
 * How late {@code Clock.SYSTEM.sleepUntil} returns and how much CPU it burns while waiting: the floor under
 * every open-loop response time (the Worker sleeps until each arrival's intended start). For each wait length,
 * N waits of exactly that length back to back; prints p50/p99/max lateness and CPU per wait of this thread.
 * Also plain {@code LockSupport.parkNanos} for comparison, and a candidate fix: one park until 100 us before
 * the deadline, then a spin. Linux's default timer slack (50 us for normal
 * threads, /proc/self/timerslack_ns) lets the kernel fire a sleeping thread's timer up to that much late.
 *
 * <pre>WakeupLagBench [waitsPerLength=2000]</pre>
 */
public final class WakeupLagBench {
    private WakeupLagBench() {}

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
        var threads = ManagementFactory.getThreadMXBean();
        System.out.printf(
                Locale.ROOT,
                "%-22s %8s %6s %9s %9s %9s %12s%n",
                "wait",
                "length",
                "n",
                "p50late",
                "p99late",
                "maxlate",
                "CPU/wait");
        for (String how : new String[] {"Clock.sleepUntil", "parkNanos(remaining)", "park(-100us)+spin"}) {
            for (long lengthUs : new long[] {50, 200, 1000, 5000}) {
                int count = lengthUs >= 5000 ? Math.max(100, n / 10) : n;
                long[] late = new long[count];
                long cpu0 = threads.getCurrentThreadCpuTime();
                for (int i = 0; i < count; i++) {
                    long deadline = System.nanoTime() + lengthUs * 1000;
                    if (how.startsWith("Clock")) {
                        Clock.SYSTEM.sleepUntil(deadline);
                    } else if (how.startsWith("park(")) {
                        // The candidate fix: one park to ~100 us before the deadline, then spin.
                        long r = deadline - System.nanoTime() - 100_000;
                        if (r > 0) {
                            LockSupport.parkNanos(r);
                        }
                        while (System.nanoTime() < deadline) {
                            Thread.onSpinWait();
                        }
                    } else {
                        long r;
                        while ((r = deadline - System.nanoTime()) > 0) {
                            LockSupport.parkNanos(r);
                        }
                    }
                    late[i] = System.nanoTime() - deadline;
                }
                long cpu = threads.getCurrentThreadCpuTime() - cpu0;
                Arrays.sort(late);
                System.out.printf(
                        Locale.ROOT,
                        "%-22s %6dus %6d %7.1fus %7.1fus %7.1fus %10.1fus%n",
                        how,
                        lengthUs,
                        count,
                        late[count / 2] / 1e3,
                        late[(int) (count * 0.99)] / 1e3,
                        late[count - 1] / 1e3,
                        cpu / 1e3 / count);
            }
        }
    }
}
