package org.ivsbench.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.cql.ColumnDefinition;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.sun.management.OperatingSystemMXBean;
import org.HdrHistogram.Histogram;

import org.ivsbench.random.KeyNames;

/**
 * The baseline for the Cassandra binding: a plain java-driver loop doing what a ReadRecord of ycsbivs does
 * (one prepared {@code SELECT * FROM t WHERE ycsb_key = ?} at the binding's consistency, every field of the row
 * read as a string) over the same keys (uniform key numbers, YCSB's hashed key names), with k threads in a closed
 * loop until N reads in total have completed. Nothing of ivsbench runs but the key names. It prints one line in
 * {@link PhaseBench}'s columns, so scripts/bench/cassandra-binding.sh can set the two side by side.
 *
 * <p>A warm-up of the same reads for a few seconds comes first (JIT, connection pool, the server's caches), as
 * PhaseBench's configs begin with a warm-up phase. CPU figures are deltas over the measured reads inside this
 * JVM, as PhaseBench takes them.
 *
 * <pre>
 * CassandraDriverLoopBench --port P --records N --threads K --reads N [--host H] [--keyspace KS] [--table T]
 *                          [--dc DC] [--warmup SECONDS] [--server-pid PID] [--label TEXT] [--seed S]
 * </pre>
 */
public final class CassandraDriverLoopBench {
    private CassandraDriverLoopBench() {}

    public static void main(String[] args) throws Exception {
        String host = "127.0.0.1";
        int port = 9042;
        String keyspace = "ivsbench";
        String table = "usertable";
        String dc = "datacenter1";
        long records = 1000;
        int threads = 1;
        long reads = 10000;
        int warmupSeconds = 2;
        long serverPid = -1;
        String label = "driver";
        long seed = 42;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--host" -> host = args[++i];
                case "--port" -> port = Integer.parseInt(args[++i]);
                case "--keyspace" -> keyspace = args[++i];
                case "--table" -> table = args[++i];
                case "--dc" -> dc = args[++i];
                case "--records" -> records = Long.parseLong(args[++i]);
                case "--threads" -> threads = Integer.parseInt(args[++i]);
                case "--reads" -> reads = Long.parseLong(args[++i]);
                case "--warmup" -> warmupSeconds = Integer.parseInt(args[++i]);
                case "--server-pid" -> serverPid = Long.parseLong(args[++i]);
                case "--label" -> label = args[++i];
                case "--seed" -> seed = Long.parseLong(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        // The binding's request timeout and no retries; everything else is the driver's default.
        DriverConfigLoader loader = DriverConfigLoader.programmaticBuilder()
                .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(10))
                .withBoolean(DefaultDriverOption.REQUEST_LOG_WARNINGS, false)
                .build();
        try (CqlSession session = CqlSession.builder()
                .withConfigLoader(loader)
                .addContactPoint(new InetSocketAddress(host, port))
                .withLocalDatacenter(dc)
                .build()) {
            PreparedStatement select =
                    session.prepare("SELECT * FROM " + keyspace + "." + table + " WHERE ycsb_key = ?");
            Loop warm = new Loop(session, select, records, threads, Long.MAX_VALUE, seed);
            warm.run(System.nanoTime() + warmupSeconds * 1_000_000_000L);
            OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
            long cpu0 = os.getProcessCpuTime();
            long srv0 = PhaseBench.serverCpuNanos(serverPid);
            Loop measured = new Loop(session, select, records, threads, reads, seed + 1);
            long t0 = System.nanoTime();
            measured.run(Long.MAX_VALUE);
            long elapsed = System.nanoTime() - t0;
            long cpu1 = os.getProcessCpuTime();
            long srv1 = PhaseBench.serverCpuNanos(serverPid);
            print(label, threads, reads, elapsed, measured, cpu1 - cpu0, srv0 < 0 || srv1 < 0 ? -1 : srv1 - srv0);
        }
    }

    private static void print(
            String label, int threads, long reads, long elapsedNanos, Loop loop, long cpuNanos, long srvNanos) {
        boolean server = srvNanos >= 0;
        System.out.println("# " + label + ": plain java-driver loop, " + threads + " threads, " + reads + " reads");
        System.out.println(PhaseBench.header(server));
        Histogram h = loop.latencies();
        String p50 = h.getValueAtPercentile(50) + "us";
        String p99 = h.getValueAtPercentile(99) + "us";
        System.out.println(String.format(
                Locale.ROOT,
                "%-10s %-14s %5d %-8s %10s %9d %10s %8s %8s %8s %8d %7s %7s %7s %7s %9s %9s%s",
                label,
                "read",
                threads,
                "closed",
                "unlimited",
                loop.completed.get(),
                String.format(Locale.ROOT, "%.1f", reads / (elapsedNanos / 1e9)),
                "-",
                "-",
                "-",
                0,
                p50,
                p99,
                p50,
                p99,
                String.format(Locale.ROOT, "%.2fus", cpuNanos / 1e3 / reads),
                String.format(Locale.ROOT, "%.2fus", loop.threadCpuNanos.get() / 1e3 / reads),
                server
                        ? String.format(
                                Locale.ROOT, " %9s", String.format(Locale.ROOT, "%.1fus", srvNanos / 1e3 / reads))
                        : ""));
        if (loop.errors.get() > 0) {
            System.out.println("# " + label + ": " + loop.errors.get() + " reads failed");
        }
    }

    /** K threads taking tickets from one counter until N reads (or the deadline); a closed loop like the engine's. */
    private static final class Loop {
        private final CqlSession session;
        private final PreparedStatement select;
        private final long records;
        private final int threads;
        private final long limit;
        private final long seed;
        final AtomicLong tickets = new AtomicLong();
        final AtomicLong completed = new AtomicLong();
        final AtomicLong errors = new AtomicLong();
        final AtomicLong threadCpuNanos = new AtomicLong();
        private final List<Histogram> histograms = new ArrayList<>();

        Loop(CqlSession session, PreparedStatement select, long records, int threads, long limit, long seed) {
            this.session = session;
            this.select = select;
            this.records = records;
            this.threads = threads;
            this.limit = limit;
            this.seed = seed;
        }

        void run(long deadlineNanos) throws InterruptedException {
            CountDownLatch done = new CountDownLatch(threads);
            ThreadMXBean mx = ManagementFactory.getThreadMXBean();
            for (int t = 0; t < threads; t++) {
                Histogram h = new Histogram(3_600_000_000L, 3);
                histograms.add(h);
                SplittableRandom random = new SplittableRandom(seed * 1_000_003L + t);
                Thread thread = new Thread(
                        () -> {
                            long cpu0 = mx.getCurrentThreadCpuTime();
                            try {
                                while (tickets.getAndIncrement() < limit && System.nanoTime() < deadlineNanos) {
                                    String key = KeyNames.key(random.nextLong(records), false);
                                    long start = System.nanoTime();
                                    try {
                                        Row row = session.execute(
                                                        select.bind(key).setConsistencyLevel(ConsistencyLevel.ONE))
                                                .one();
                                        if (row != null) {
                                            consume(row);
                                        }
                                        completed.incrementAndGet();
                                    } catch (RuntimeException e) {
                                        errors.incrementAndGet();
                                    }
                                    h.recordValue(Math.max(0, (System.nanoTime() - start) / 1000));
                                }
                            } finally {
                                threadCpuNanos.addAndGet(mx.getCurrentThreadCpuTime() - cpu0);
                                done.countDown();
                            }
                        },
                        "driver-loop-" + t);
                thread.start();
            }
            done.await();
        }

        /** Every column as a string, as the binding copies a row's fields into the caller's map. */
        private static void consume(Row row) {
            int n = 0;
            for (ColumnDefinition c : row.getColumnDefinitions()) {
                String v = row.getString(c.getName());
                n += v == null ? 0 : v.length();
            }
            if (n < 0) {
                throw new IllegalStateException();
            }
        }

        Histogram latencies() {
            Histogram all = new Histogram(3_600_000_000L, 3);
            histograms.forEach(all::add);
            return all;
        }
    }
}
