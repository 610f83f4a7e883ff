package org.ivsbench.monitor;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.LongSupplier;
import java.util.regex.Pattern;

/**
 * Reads /proc directly (no dstat, no Python): cpu, memory, disks, network of the host and cpu/rss/threads/io of
 * the database process, as the {@code os.*} and {@code proc.*} columns of docs/results-format.md.
 *
 * <p>Rates are divided by the elapsed time measured with the injected monotonic clock, not by the nominal
 * interval, so a late tick does not inflate a rate. The /proc root is injectable so tests can feed fixture
 * trees; whole disks are told from partitions by {@code <root>/../sys/block} when it exists, by name otherwise.
 */
public final class ProcSampler implements HostSampler {
    /** Sectors in /proc/diskstats are always 512 bytes, whatever the device's block size. */
    private static final long SECTOR_BYTES = 512;

    private static final Pattern SKIPPED_DISK = Pattern.compile("^(loop|ram|zram|fd|sr)\\d*.*");
    private static final Pattern PARTITION =
            Pattern.compile("^((sd|vd|hd|xvd)[a-z]+\\d+|(nvme\\d+n\\d+|mmcblk\\d+|md\\d+)p\\d+)$");
    /** Stacked devices (device mapper, software RAID) repeat the I/O of the disks below them. */
    private static final Pattern STACKED = Pattern.compile("^(dm-|md)\\d+$");

    /** A whole disk worth a column by its name alone (not a loop/ram device, not a partition). */
    static boolean isWholeDiskName(String name) {
        return !SKIPPED_DISK.matcher(name).matches() && !PARTITION.matcher(name).matches();
    }

    /** A device mapper or software RAID device: listed, but kept out of the totals. */
    static boolean isStackedDiskName(String name) {
        return STACKED.matcher(name).matches();
    }

    private final Path procDir;
    private final Path sysBlockDir;
    private final ProcessLocator process;
    private final long clockTicksPerSecond;
    private final LongSupplier nanoClock;

    private Snapshot previous;

    public ProcSampler(Path procDir, ProcessLocator process, long clockTicksPerSecond, LongSupplier nanoClock) {
        this.procDir = procDir;
        Path parent = procDir.toAbsolutePath().getParent();
        this.sysBlockDir = parent == null ? null : parent.resolve("sys").resolve("block");
        this.process = process;
        this.clockTicksPerSecond = clockTicksPerSecond;
        this.nanoClock = nanoClock;
    }

    /** This host's /proc; CLK_TCK is 100 on every Linux architecture the JVM runs on (USER_HZ is fixed ABI). */
    public static ProcSampler local(ProcessLocator process) {
        return new ProcSampler(Path.of("/proc"), process, 100, System::nanoTime);
    }

    @Override
    public Map<String, Double> sample() {
        Snapshot now = read();
        Map<String, Double> out = new LinkedHashMap<>();
        Snapshot prev = previous;
        double seconds = prev == null ? 0 : (now.nanos - prev.nanos) / 1e9;
        boolean rates = prev != null && seconds > 0;

        CpuColumns.put(out, CpuColumns.of(rates ? prev.cpu : null), CpuColumns.of(now.cpu));
        memory(out, now.mem);
        disks(out, rates ? prev.disks : null, now.disks, seconds);
        net(out, rates ? prev.net : null, now.net, seconds);
        proc(out, rates ? prev.proc : null, now.proc, seconds);

        previous = now;
        return out;
    }

    // ---- computing columns -------------------------------------------------------------------------------

    private static void memory(Map<String, Double> out, Map<String, Long> mem) {
        Long total = mem.get("MemTotal");
        Long free = mem.get("MemFree");
        // cached = Buffers + Cached + SReclaimable, the "buff/cache" of free(1), so used + free + cached = total.
        long cachedKb =
                mem.getOrDefault("Buffers", 0L) + mem.getOrDefault("Cached", 0L) + mem.getOrDefault("SReclaimable", 0L);
        boolean ok = total != null && free != null;
        out.put("os.mem.used_bytes", ok ? (double) (total - free - cachedKb) * 1024 : null);
        out.put("os.mem.free_bytes", free == null ? null : free * 1024.0);
        out.put("os.mem.cached_bytes", ok ? cachedKb * 1024.0 : null);
        Long available = mem.get("MemAvailable");
        out.put("os.mem.available_bytes", available == null ? null : available * 1024.0);
    }

    private static final String[] DISK_COLUMNS = {
        "read_bytes_ps", "write_bytes_ps", "read_ops_ps", "write_ops_ps", "io_ms_ps"
    };

    private void disks(Map<String, Double> out, Map<String, long[]> before, Map<String, long[]> after, double seconds) {
        double[] total = new double[5];
        Map<String, double[]> perDevice = new LinkedHashMap<>();
        for (Map.Entry<String, long[]> e : after.entrySet()) {
            long[] b = before == null ? null : before.get(e.getKey());
            double[] r = null;
            if (b != null) {
                long[] a = e.getValue();
                // a: reads, sectors read, writes, sectors written, io ms
                r = new double[] {
                    nonNeg(a[1] - b[1]) * SECTOR_BYTES / seconds,
                    nonNeg(a[3] - b[3]) * SECTOR_BYTES / seconds,
                    nonNeg(a[0] - b[0]) / seconds,
                    nonNeg(a[2] - b[2]) / seconds,
                    nonNeg(a[4] - b[4]) / seconds
                };
                if (!STACKED.matcher(e.getKey()).matches()) {
                    for (int i = 0; i < 5; i++) {
                        total[i] += r[i];
                    }
                }
            }
            perDevice.put(e.getKey(), r);
        }
        for (int i = 0; i < 5; i++) {
            out.put("os.disk." + DISK_COLUMNS[i], before != null ? total[i] : null);
        }
        for (Map.Entry<String, double[]> e : perDevice.entrySet()) {
            for (int i = 0; i < 5; i++) {
                out.put("os.disk." + e.getKey() + "." + DISK_COLUMNS[i], e.getValue() == null ? null : e.getValue()[i]);
            }
        }
    }

    private static void net(
            Map<String, Double> out, Map<String, long[]> before, Map<String, long[]> after, double seconds) {
        for (Map.Entry<String, long[]> e : after.entrySet()) {
            long[] b = before == null ? null : before.get(e.getKey());
            long[] a = e.getValue();
            out.put("os.net." + e.getKey() + ".rx_bytes_ps", b == null ? null : nonNeg(a[0] - b[0]) / seconds);
            out.put("os.net." + e.getKey() + ".tx_bytes_ps", b == null ? null : nonNeg(a[1] - b[1]) / seconds);
        }
    }

    private void proc(Map<String, Double> out, ProcStats before, ProcStats after, double seconds) {
        // A restarted server has a new pid: its counters start again, so no rate across the change.
        boolean rates = before != null && after != null && before.pid == after.pid;
        out.put(
                "proc.cpu_pct",
                rates && after.cpuTicks >= 0 && before.cpuTicks >= 0
                        ? 100.0 * nonNeg(after.cpuTicks - before.cpuTicks) / clockTicksPerSecond / seconds
                        : null);
        out.put("proc.rss_bytes", after == null || after.rssBytes < 0 ? null : (double) after.rssBytes);
        out.put("proc.threads", after == null || after.threads < 0 ? null : (double) after.threads);
        // /proc/<pid>/io is only readable by the process owner or root: missing, not zero.
        boolean io = rates && after.readBytes >= 0 && before.readBytes >= 0;
        out.put("proc.read_bytes_ps", io ? nonNeg(after.readBytes - before.readBytes) / seconds : null);
        out.put("proc.write_bytes_ps", io ? nonNeg(after.writeBytes - before.writeBytes) / seconds : null);
    }

    private static double nonNeg(long v) {
        return Math.max(0, v); // counters wrap or reset (device re-attached): never report a negative rate
    }

    // ---- reading /proc -----------------------------------------------------------------------------------

    private record ProcStats(long pid, long cpuTicks, long rssBytes, long threads, long readBytes, long writeBytes) {}

    private record Snapshot(
            long nanos,
            long[] cpu,
            Map<String, Long> mem,
            Map<String, long[]> disks,
            Map<String, long[]> net,
            ProcStats proc) {}

    private Snapshot read() {
        long nanos = nanoClock.getAsLong();
        return new Snapshot(nanos, readCpu(), readMeminfo(), readDisks(), readNet(), readProcess());
    }

    private List<String> lines(Path file) {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }

    private long[] readCpu() {
        for (String line : lines(procDir.resolve("stat"))) {
            if (line.startsWith("cpu ")) {
                String[] f = line.trim().split("\\s+");
                long[] v = new long[8];
                for (int i = 0; i < 8 && i + 1 < f.length; i++) {
                    v[i] = Long.parseLong(f[i + 1]);
                }
                return v;
            }
        }
        return null;
    }

    private Map<String, Long> readMeminfo() {
        Map<String, Long> m = new LinkedHashMap<>();
        for (String line : lines(procDir.resolve("meminfo"))) {
            int colon = line.indexOf(':');
            if (colon <= 0) {
                continue;
            }
            String[] f = line.substring(colon + 1).trim().split("\\s+");
            try {
                m.put(line.substring(0, colon), Long.parseLong(f[0])); // kB
            } catch (NumberFormatException e) {
                // not a number: not one of ours
            }
        }
        return m;
    }

    private Map<String, long[]> readDisks() {
        Map<String, long[]> disks = new LinkedHashMap<>();
        boolean haveSys = sysBlockDir != null && Files.isDirectory(sysBlockDir);
        for (String line : lines(procDir.resolve("diskstats"))) {
            String[] f = line.trim().split("\\s+");
            if (f.length < 14) {
                continue;
            }
            String name = f[2];
            if (SKIPPED_DISK.matcher(name).matches()) {
                continue;
            }
            boolean wholeDisk = haveSys
                    ? Files.exists(sysBlockDir.resolve(name.replace('/', '!')))
                    : !PARTITION.matcher(name).matches();
            if (!wholeDisk) {
                continue;
            }
            disks.put(name, new long[] {
                Long.parseLong(f[3]),
                Long.parseLong(f[5]),
                Long.parseLong(f[7]),
                Long.parseLong(f[9]),
                Long.parseLong(f[12])
            });
        }
        return disks;
    }

    private Map<String, long[]> readNet() {
        Map<String, long[]> net = new LinkedHashMap<>();
        for (String line : lines(procDir.resolve("net").resolve("dev"))) {
            int colon = line.indexOf(':');
            if (colon <= 0 || line.contains("|")) {
                continue;
            }
            String[] f = line.substring(colon + 1).trim().split("\\s+");
            if (f.length < 9) {
                continue;
            }
            net.put(line.substring(0, colon).trim(), new long[] {Long.parseLong(f[0]), Long.parseLong(f[8])});
        }
        return net;
    }

    /**
     * The server process and its children (PostgreSQL's backends, one per connection, do the work; MariaDB and
     * MongoDB have none): CPU and I/O are summed over the tree, threads counted over it, RSS is the main
     * process's (children share its memory). CPU includes the children that already exited (cutime/cstime),
     * so it never goes back; a child's I/O leaves the sum when it exits (a negative delta is read as 0).
     */
    private ProcStats readProcess() {
        OptionalLong pid = process.locate();
        if (pid.isEmpty()) {
            return null;
        }
        Path dir = procDir.resolve(Long.toString(pid.getAsLong()));
        long ticks = cpuTicks(dir);
        if (ticks == GONE) {
            return null;
        }
        long rss = -1;
        long[] threads = {-1};
        for (String line : lines(dir.resolve("status"))) {
            if (line.startsWith("VmRSS:")) {
                rss = Long.parseLong(line.substring(6).trim().split("\\s+")[0]) * 1024;
            } else if (line.startsWith("Threads:")) {
                threads[0] = Long.parseLong(line.substring(8).trim());
            }
        }
        long[] io = io(dir);
        for (String child : children(dir, pid.getAsLong())) {
            Path c = procDir.resolve(child);
            long t = cpuTicks(c);
            if (t == GONE) {
                continue;
            }
            ticks = ticks < 0 || t < 0 ? ticks : ticks + t;
            for (String line : lines(c.resolve("status"))) {
                if (line.startsWith("Threads:") && threads[0] >= 0) {
                    threads[0] += Long.parseLong(line.substring(8).trim());
                }
            }
            long[] cio = io(c);
            io[0] = io[0] < 0 || cio[0] < 0 ? io[0] : io[0] + cio[0];
            io[1] = io[1] < 0 || cio[1] < 0 ? io[1] : io[1] + cio[1];
        }
        return new ProcStats(pid.getAsLong(), ticks, rss, threads[0], io[0], io[1]);
    }

    private static final long GONE = Long.MIN_VALUE;

    /** utime + stime + cutime + cstime of /proc/PID (-1 when unreadable, GONE when the process is gone). */
    private long cpuTicks(Path dir) {
        List<String> stat = lines(dir.resolve("stat"));
        if (stat.isEmpty()) {
            return GONE;
        }
        // comm (field 2) may contain spaces and parentheses: the fields that follow start after the last ')'.
        String s = stat.get(0);
        String[] f = s.substring(s.lastIndexOf(')') + 1).trim().split("\\s+");
        if (f.length <= 14) {
            return -1;
        }
        // utime, stime, cutime, cstime: fields 14-17
        return Long.parseLong(f[11]) + Long.parseLong(f[12]) + Long.parseLong(f[13]) + Long.parseLong(f[14]);
    }

    /** read_bytes, write_bytes of /proc/PID/io (each -1 when unreadable: only the owner or root may). */
    private long[] io(Path dir) {
        long[] rw = {-1, -1};
        for (String line : lines(dir.resolve("io"))) {
            if (line.startsWith("read_bytes:")) {
                rw[0] = Long.parseLong(line.substring(11).trim());
            } else if (line.startsWith("write_bytes:")) {
                rw[1] = Long.parseLong(line.substring(12).trim());
            }
        }
        return rw;
    }

    /** The direct children of PID (the kernel's task/PID/children list; none where the kernel lacks it). */
    private List<String> children(Path dir, long pid) {
        List<String> lines =
                lines(dir.resolve("task").resolve(Long.toString(pid)).resolve("children"));
        return lines.isEmpty() || lines.get(0).isBlank()
                ? List.of()
                : List.of(lines.get(0).trim().split("\\s+"));
    }
}
