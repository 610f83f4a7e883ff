package org.ivsbench.benchmarks;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import com.sun.management.OperatingSystemMXBean;

import org.ivsbench.bench.BenchmarkModule;
import org.ivsbench.bench.BenchmarkRegistry;
import org.ivsbench.bench.LoadProgress;
import org.ivsbench.bench.LoadReport;
import org.ivsbench.bench.Terminal;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.ConfigLoader;
import org.ivsbench.config.PhaseConfig;
import org.ivsbench.config.RateSpec;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetKinds;
import org.ivsbench.db.Targets;
import org.ivsbench.engine.Clock;
import org.ivsbench.engine.WorkloadManager;
import org.ivsbench.op.OpResult;
import org.ivsbench.stats.LatencySummary;
import org.ivsbench.stats.PhaseSummary;
import org.ivsbench.stats.RunInfo;
import org.ivsbench.stats.StatsCollector;

/**
 * Runs the phases of an ivsbench XML config through the real engine (WorkloadManager + StatsCollector, the
 * same classes the CLI uses) in ONE JVM and prints one line per phase: throughput, target rate, the start
 * lag's p50/p99/max (the pacing: how late operations started), missed arrivals, p50/p99 response and service time, and CPU time per operation of this JVM (all threads:
 * terminals, statistics, JIT, GC), of the terminal threads alone, and of the database server process.
 *
 * <p>Phase boundaries for the CPU figures: a wrapper around each terminal snapshots the CPU counters when the
 * first terminal enters a phase ({@link Terminal#startPhase}); the last phase ends when the engine returns.
 * A count phase starts the next one only after its last operation completed, so the deltas belong to one
 * phase. Operations per phase = measured + warmup operations (both used CPU).
 *
 * <pre>
 * PhaseBench -c FILE [--create] [--load] [--noop] [--server-pid PID] [--label TEXT]
 *   --noop         terminals do nothing (engine overhead); no database is opened
 *   --server-pid   also report that process's CPU per operation (from /proc/PID/stat)
 * </pre>
 */
public final class PhaseBench {
    private static final double CLK_TCK = 100.0;

    private PhaseBench() {}

    /** CPU counters at one instant. */
    record CpuSnap(long processNanos, long terminalNanos, long serverNanos) {}

    public static void main(String[] args) throws Exception {
        Path configFile = null;
        boolean create = false;
        boolean load = false;
        boolean noop = false;
        long serverPid = -1;
        String label = "";
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "-c" -> configFile = Path.of(args[++i]);
                case "--create" -> create = true;
                case "--load" -> load = true;
                case "--noop" -> noop = true;
                case "--server-pid" -> serverPid = Long.parseLong(args[++i]);
                case "--label" -> label = args[++i];
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        if (configFile == null) {
            throw new IllegalArgumentException(
                    "usage: PhaseBench -c FILE [--create] [--load] [--noop] [--server-pid PID]");
        }
        BenchmarkModule module = BenchmarkRegistry.create("ycsbivs").orElseThrow();
        BenchmarkConfig config = ConfigLoader.load(
                configFile,
                module.name(),
                module.supportedTransactionTypes(),
                module.parameterNames(),
                module.phaseParameterNames(),
                TargetKinds::resolve);
        module.validate(config);
        Target target = noop ? null : Targets.open(config.target());
        try {
            if (create && target != null) {
                module.create(config, target);
            }
            if (load && target != null) {
                LoadReport r = module.load(config, target, LoadProgress.NONE);
                double s = Math.max(1, r.elapsedMillis()) / 1000.0;
                System.out.printf(
                        Locale.ROOT,
                        "# %sloaded %d records (%.1f MB) in %.2f s: %.0f records/s, %.1f MB/s%n",
                        label.isEmpty() ? "" : label + " ",
                        r.records(),
                        r.bytes() / 1e6,
                        s,
                        r.records() / s,
                        r.bytes() / 1e6 / s);
            }
            run(module, config, target, serverPid, label);
        } finally {
            if (target != null) {
                target.close();
            }
        }
    }

    static void run(BenchmarkModule module, BenchmarkConfig config, Target target, long serverPid, String label)
            throws Exception {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        Map<Long, Boolean> terminalThreads = new ConcurrentHashMap<>();
        Map<Integer, CpuSnap> phaseStart = new ConcurrentHashMap<>();
        Supplier<CpuSnap> snap = () -> {
            long term = 0;
            for (long id : terminalThreads.keySet()) {
                long t = threads.getThreadCpuTime(id);
                term += Math.max(0, t);
            }
            return new CpuSnap(os.getProcessCpuTime(), term, serverCpuNanos(serverPid));
        };

        // A 1 s idle sentinel phase after the last one: its startPhase is the end snapshot of the last real
        // phase, taken on a terminal thread while it is still alive (a dead thread has no CPU time to read).
        List<PhaseConfig> phases = new ArrayList<>(config.phases());
        PhaseConfig last = phases.get(phases.size() - 1);
        phases.add(PhaseConfig.builder(phases.size())
                .name("end-sentinel")
                .timeSeconds(1)
                .rate(RateSpec.disabled())
                .arrival(last.arrival())
                .weights(last.weights())
                .activeTerminals(last.activeTerminals())
                .parameters(last.parameters())
                .build());
        Path dir = Files.createTempDirectory("ivsbench-phasebench");
        RunInfo info = new RunInfo(
                "bench", module.name(), Map.of(), "sha256:-", config.randomSeed(), config.terminals(), 1, phases);
        StatsCollector collector = new StatsCollector(dir, info);
        WorkloadManager manager = new WorkloadManager(
                phases, config.transactionTypes(), config.terminals(), config.randomSeed(), collector, Clock.SYSTEM);
        manager.run(id -> {
            Terminal inner = target == null ? new NoopTerminal() : module.newTerminal(config, target, id);
            return new Terminal() {
                @Override
                public void startPhase(PhaseConfig phase, SplittableRandom random) {
                    terminalThreads.put(Thread.currentThread().getId(), Boolean.TRUE);
                    // computeIfAbsent: the first terminal to enter a phase takes the snapshot.
                    phaseStart.computeIfAbsent(phase.index(), i -> snap.get());
                    inner.startPhase(phase, random);
                }

                @Override
                public OpResult execute(int type) {
                    return inner.execute(type);
                }

                @Override
                public void close() {
                    inner.close();
                }
            };
        });
        CpuSnap end = snap.get();
        collector.close();
        List<PhaseSummary> summaries = collector.summaries();

        System.out.println("# " + (label.isEmpty() ? "" : label + ": ") + "terminals=" + config.terminals()
                + " cores=" + Runtime.getRuntime().availableProcessors() + " java=" + System.getProperty("java.version")
                + " target="
                + (target == null
                                ? "noop"
                                : config.target().type() + " "
                                        + config.parameters().getOrDefault("engine", ""))
                        .trim());
        System.out.println(header(serverPid >= 0));
        for (int i = 0; i < summaries.size() - 1; i++) {
            PhaseSummary s = summaries.get(i);
            PhaseConfig p = phases.get(i);
            CpuSnap a = phaseStart.get(i);
            CpuSnap b = phaseStart.getOrDefault(i + 1, end);
            long ops = s.counts().total() + s.warmupOperations();
            System.out.println(row(label, p, s, a, b, ops, serverPid >= 0));
        }
        deleteQuietly(dir);
    }

    static String header(boolean server) {
        return String.format(
                Locale.ROOT,
                "%-10s %-14s %5s %-8s %10s %9s %10s %8s %8s %8s %8s %7s %7s %7s %7s %9s %9s%s",
                "label",
                "phase",
                "term",
                "arrival",
                "target/s",
                "ops",
                "ops/s",
                "lag50",
                "lag99",
                "lagMax",
                "missed",
                "p50rsp",
                "p99rsp",
                "p50svc",
                "p99svc",
                "cliCPU/op",
                "trmCPU/op",
                server ? String.format(" %9s", "srvCPU/op") : "");
    }

    static String row(String label, PhaseConfig p, PhaseSummary s, CpuSnap a, CpuSnap b, long ops, boolean server) {
        String targetRate = p.rate().kind() == RateSpec.Kind.OPEN ? fmt(p.rate().opsPerSecond()) : "unlimited";
        // Pacing is the start lag (actual - intended start): operations / phase length is the target by
        // construction whenever arrivals are regular and none is missed, so it cannot show a late schedule.
        Double achieved = s.throughput();
        LatencySummary lag = s.startLagUs();
        String cli = "-";
        String trm = "-";
        String srv = "-";
        if (a != null && ops > 0) {
            cli = String.format(Locale.ROOT, "%.2fus", (b.processNanos() - a.processNanos()) / 1e3 / ops);
            trm = String.format(Locale.ROOT, "%.2fus", (b.terminalNanos() - a.terminalNanos()) / 1e3 / ops);
            if (a.serverNanos() >= 0 && b.serverNanos() >= 0) {
                srv = String.format(Locale.ROOT, "%.1fus", (b.serverNanos() - a.serverNanos()) / 1e3 / ops);
            }
        }
        LatencySummary r = s.responseTimeUs();
        LatencySummary v = s.serviceTimeUs();
        return String.format(
                Locale.ROOT,
                "%-10s %-14s %5d %-8s %10s %9d %10s %8s %8s %8s %8d %7s %7s %7s %7s %9s %9s%s",
                label.isEmpty() ? "-" : label,
                p.name(),
                p.activeTerminals(),
                p.rate().kind() == RateSpec.Kind.OPEN ? p.arrival().name().toLowerCase(Locale.ROOT) : "closed",
                targetRate,
                s.counts().total(),
                achieved == null ? "-" : fmt(achieved),
                us(lag.p50()),
                us(lag.p99()),
                us(lag.max()),
                s.missed(),
                us(r.p50()),
                us(r.p99()),
                us(v.p50()),
                us(v.p99()),
                cli,
                trm,
                server ? String.format(" %9s", srv) : "");
    }

    private static String fmt(double d) {
        return String.format(Locale.ROOT, "%.1f", d);
    }

    private static String us(Long v) {
        return v == null ? "-" : v + "us";
    }

    /** utime + stime of a process in ns (CLK_TCK 100, so 10 ms resolution), or -1. */
    /**
     * The server's CPU time: the process's own, its reaped children's (cutime/cstime) and its live children's. A
     * one-process server (mariadbd) has no children; PostgreSQL's work is done in backends, children of the
     * postmaster, and a backend that exits between two readings moves from the live sum into cutime/cstime.
     */
    static long serverCpuNanos(long pid) {
        if (pid < 0) {
            return -1;
        }
        try {
            String[] f = statFields(pid);
            // After "pid (comm) ": state is f[0]; utime is field 14 overall -> f[11], stime f[12], cutime f[13],
            // cstime f[14].
            long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]) + Long.parseLong(f[13]) + Long.parseLong(f[14]);
            for (ProcessHandle child :
                    ProcessHandle.of(pid).orElseThrow().children().toList()) {
                try {
                    String[] c = statFields(child.pid());
                    ticks += Long.parseLong(c[11]) + Long.parseLong(c[12]);
                } catch (Exception exited) {
                    // Gone since the listing: its time is in the parent's cutime/cstime once reaped.
                }
            }
            return (long) (ticks / CLK_TCK * 1e9);
        } catch (Exception e) {
            return -1;
        }
    }

    private static String[] statFields(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        return stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    }

    private static void deleteQuietly(Path dir) {
        try (var s = Files.walk(dir)) {
            List<Path> all = new ArrayList<>(s.toList());
            Collections.reverse(all);
            for (Path p : all) {
                Files.deleteIfExists(p);
            }
        } catch (Exception ignored) {
            // a temp folder left behind is harmless
        }
    }

    /** A terminal that does nothing: what the engine costs per operation by itself. */
    static final class NoopTerminal implements Terminal {
        @Override
        public void startPhase(PhaseConfig phase, SplittableRandom random) {}

        @Override
        public OpResult execute(int transactionTypeIndex) {
            return OpResult.ok();
        }

        @Override
        public void close() {}
    }
}
