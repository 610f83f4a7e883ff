package org.ivsbench.monitor;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProcSamplerTest {
    private static final double EPS = 1e-9;

    @TempDir
    Path root;

    private Path proc() {
        return root.resolve("proc");
    }

    /** One state of the fixture host; the second snapshot is the first plus known deltas over 2 s. */
    private void writeSnapshot(boolean second) throws IOException {
        Path proc = proc();
        Files.createDirectories(proc.resolve("net"));
        Files.createDirectories(proc.resolve("4242"));
        // user nice system idle iowait irq softirq steal guest guest_nice
        Files.writeString(
                proc.resolve("stat"),
                second
                        ? "cpu  1100 20 540 8200 116 10 10 4 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\nctxt 5\n"
                        : "cpu  1000 0 500 8000 100 0 0 0 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\nctxt 1\n");
        Files.writeString(
                proc.resolve("meminfo"),
                """
                MemTotal:       16000000 kB
                MemFree:         4000000 kB
                MemAvailable:    9000000 kB
                Buffers:          100000 kB
                Cached:          3000000 kB
                SwapCached:            0 kB
                SReclaimable:     200000 kB
                HugePages_Total:       0
                """);
        Files.writeString(
                proc.resolve("diskstats"),
                second
                        ? """
                   7       0 loop0 9 0 999 0 0 0 0 0 0 0 0 0 0 0 0 0 0
                 254       0 vda 1100 5 22000 70 560 3 8400 90 0 3500 4000 0 0 0 0 0 0
                 254       1 vda1 1100 5 22000 70 560 3 8400 90 0 3500 4000 0 0 0 0 0 0
                   8       0 sda 20 0 160 1 0 0 0 0 0 40 40 0 0 0 0 0 0
                 252       0 dm-0 200 0 4000 7 0 0 0 0 0 400 400 0 0 0 0 0 0
                """
                        : """
                   7       0 loop0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
                 254       0 vda 1000 5 20000 60 500 3 8000 80 0 3000 3500 0 0 0 0 0 0
                 254       1 vda1 1000 5 20000 60 500 3 8000 80 0 3000 3500 0 0 0 0 0 0
                   8       0 sda 10 0 80 1 0 0 0 0 0 20 20 0 0 0 0 0 0
                 252       0 dm-0 100 0 2000 5 0 0 0 0 0 300 300 0 0 0 0 0 0
                """);
        Files.writeString(
                proc.resolve("net").resolve("dev"),
                String.format(
                        """
                Inter-|   Receive                                                |  Transmit
                 face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed
                    lo: %d     546    0    0    0     0          0         0    %d     546    0    0    0     0       0          0
                  eth0: %d   15440    0    0    0     0          0         0  %d    9313    0    0    0     0       0          0
                """,
                        second ? 52000 : 50000,
                        second ? 52000 : 50000,
                        second ? 610000 : 600000,
                        second ? 14000 : 10000));
        Path pid = proc.resolve("4242");
        Files.writeString(pid.resolve("comm"), "mariadbd\n");
        // comm with a space and a ')' inside: fields must be counted from the last ')'
        Files.writeString(
                pid.resolve("stat"),
                "4242 (maria) db) S 1 4242 4242 0 -1 4194560 100 0 0 0 " + (second ? "650 250" : "500 200")
                        + " 0 0 20 0 37 0 12345 999999 5000 18446744073709551615\n");
        Files.writeString(
                pid.resolve("status"),
                "Name:\tmariadbd\nVmRSS:\t  " + (second ? 123456 : 100000) + " kB\nThreads:\t" + (second ? 37 : 30)
                        + "\n");
        Files.writeString(
                pid.resolve("io"),
                "rchar: 1\nwchar: 2\nsyscr: 3\nsyscw: 4\nread_bytes: "
                        + (second ? 8192000 : 4096000) + "\nwrite_bytes: " + (second ? 3000000 : 2000000)
                        + "\ncancelled_write_bytes: 0\n");
    }

    private Map<String, Double> twoSnapshots(ProcessLocator locator) throws IOException {
        AtomicLong nanos = new AtomicLong(5_000_000_000L);
        ProcSampler sampler = new ProcSampler(proc(), locator.withProcDir(proc()), 100, nanos::get);
        writeSnapshot(false);
        Map<String, Double> first = sampler.sample();
        assertNull(first.get("os.cpu.usr_pct"), "the first call is only a baseline");
        assertNull(first.get("proc.cpu_pct"));
        if (first.get("proc.rss_bytes") != null) { // only when a process was found
            assertEquals(100000 * 1024.0, first.get("proc.rss_bytes"), EPS, "values need no baseline");
        }
        writeSnapshot(true);
        nanos.addAndGet(2_000_000_000L);
        return sampler.sample();
    }

    @Test
    void computesExactPercentagesAndRatesFromTwoSnapshots() throws IOException {
        Map<String, Double> m = twoSnapshots(ProcessLocator.pid(4242));

        // cpu deltas: user 100 + nice 20, system 40 + irq 10 + softirq 10, idle 200, iowait 16, steal 4 = 400
        assertEquals(30.0, m.get("os.cpu.usr_pct"), EPS);
        assertEquals(15.0, m.get("os.cpu.sys_pct"), EPS);
        assertEquals(4.0, m.get("os.cpu.iowait_pct"), EPS);
        assertEquals(1.0, m.get("os.cpu.steal_pct"), EPS);
        assertEquals(50.0, m.get("os.cpu.idle_pct"), EPS);

        assertEquals((16000000 - 4000000 - 3300000) * 1024.0, m.get("os.mem.used_bytes"), EPS);
        assertEquals(4000000 * 1024.0, m.get("os.mem.free_bytes"), EPS);
        assertEquals(3300000 * 1024.0, m.get("os.mem.cached_bytes"), EPS);
        assertEquals(9000000 * 1024.0, m.get("os.mem.available_bytes"), EPS);

        // vda: +2000 sectors read, +400 written, +100 reads, +60 writes, +500 io ms, over 2 s
        assertEquals(2000 * 512 / 2.0, m.get("os.disk.vda.read_bytes_ps"), EPS);
        assertEquals(400 * 512 / 2.0, m.get("os.disk.vda.write_bytes_ps"), EPS);
        assertEquals(50.0, m.get("os.disk.vda.read_ops_ps"), EPS);
        assertEquals(30.0, m.get("os.disk.vda.write_ops_ps"), EPS);
        assertEquals(250.0, m.get("os.disk.vda.io_ms_ps"), EPS);
        assertEquals(80 * 512 / 2.0, m.get("os.disk.sda.read_bytes_ps"), EPS);
        // partitions and loop devices are not devices of their own; dm-0 is, but stays out of the total
        assertFalse(m.containsKey("os.disk.vda1.read_bytes_ps"));
        assertFalse(m.containsKey("os.disk.loop0.read_bytes_ps"));
        assertEquals(2000 * 512 / 2.0, m.get("os.disk.dm-0.read_bytes_ps"), EPS);
        assertEquals((2000 + 80) * 512 / 2.0, m.get("os.disk.read_bytes_ps"), EPS);
        assertEquals(400 * 512 / 2.0, m.get("os.disk.write_bytes_ps"), EPS);
        assertEquals(55.0, m.get("os.disk.read_ops_ps"), EPS);
        assertEquals(30.0, m.get("os.disk.write_ops_ps"), EPS);
        assertEquals(260.0, m.get("os.disk.io_ms_ps"), EPS);

        assertEquals(1000.0, m.get("os.net.lo.rx_bytes_ps"), EPS);
        assertEquals(1000.0, m.get("os.net.lo.tx_bytes_ps"), EPS);
        assertEquals(5000.0, m.get("os.net.eth0.rx_bytes_ps"), EPS);
        assertEquals(2000.0, m.get("os.net.eth0.tx_bytes_ps"), EPS);

        // utime +150, stime +50 ticks = 2 s of cpu in 2 s = one core
        assertEquals(100.0, m.get("proc.cpu_pct"), EPS);
        assertEquals(123456 * 1024.0, m.get("proc.rss_bytes"), EPS);
        assertEquals(37.0, m.get("proc.threads"), EPS);
        assertEquals(4096000 / 2.0, m.get("proc.read_bytes_ps"), EPS);
        assertEquals(1000000 / 2.0, m.get("proc.write_bytes_ps"), EPS);
    }

    @Test
    void findsTheProcessByNameAndLeavesProcColumnsEmptyWithoutOne() throws IOException {
        Map<String, Double> byName = twoSnapshots(ProcessLocator.processName("mariadbd"));
        assertEquals(100.0, byName.get("proc.cpu_pct"), EPS);

        Map<String, Double> none = twoSnapshots(ProcessLocator.processName("mongod"));
        assertTrue(none.containsKey("proc.cpu_pct"), "the column exists");
        assertNull(none.get("proc.cpu_pct"), "but is empty");
        assertNull(none.get("proc.rss_bytes"));
        assertEquals(50.0, none.get("os.cpu.idle_pct"), EPS);
    }

    @Test
    void sysBlockDecidesWhichDevicesAreDisks() throws IOException {
        Files.createDirectories(root.resolve("sys").resolve("block").resolve("vda"));
        Map<String, Double> m = twoSnapshots(ProcessLocator.none());
        assertNotNull(m.get("os.disk.vda.read_bytes_ps"));
        assertFalse(m.containsKey("os.disk.sda.read_bytes_ps"), "not in sys/block: not a disk");
        assertEquals(2000 * 512 / 2.0, m.get("os.disk.read_bytes_ps"), EPS);
    }

    @Test
    void realProcIsInRangeAndSeesThisJvm() throws Exception {
        ProcSampler sampler =
                ProcSampler.local(ProcessLocator.pid(ProcessHandle.current().pid()));
        // This JVM's own CPU time, read just outside and just inside the sampler's span: the sampler's figure
        // must lie between the two, whatever share of a core the box gave us.
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long outerStart = System.nanoTime();
        long outerCpuStart = os.getProcessCpuTime();
        sampler.sample();
        long innerCpuStart = os.getProcessCpuTime();
        long innerStart = System.nanoTime();
        long end = innerStart + 300_000_000L;
        long x = 0;
        while (System.nanoTime() < end) {
            x += Long.numberOfTrailingZeros(x + System.nanoTime()); // keep a core busy
        }
        long innerEnd = System.nanoTime();
        long innerCpuEnd = os.getProcessCpuTime();
        Map<String, Double> m = sampler.sample();
        long outerCpuEnd = os.getProcessCpuTime();
        long outerEnd = System.nanoTime();
        double sum = 0;
        for (String c : new String[] {"usr", "sys", "iowait", "steal", "idle"}) {
            double v = m.get("os.cpu." + c + "_pct");
            assertTrue(v >= 0 && v <= 100, c + " " + v);
            sum += v;
        }
        assertEquals(100.0, sum, 0.01, "the five cpu shares cover all time");
        assertTrue(m.get("os.cpu.usr_pct") + m.get("os.cpu.sys_pct") > 0);
        assertTrue(m.get("os.mem.free_bytes") > 0 && m.get("os.mem.used_bytes") > 0);
        assertTrue(m.get("os.mem.available_bytes") >= m.get("os.mem.free_bytes"));
        assertNotNull(m.get("os.net.lo.rx_bytes_ps"), "loopback is included");
        assertTrue(m.get("os.disk.read_bytes_ps") >= 0);
        assertTrue(m.get("proc.rss_bytes") > 10_000_000, "this JVM's rss " + m.get("proc.rss_bytes"));
        assertTrue(m.get("proc.threads") >= 2);
        double cpu = m.get("proc.cpu_pct");
        // /proc counts whole ticks of 10 ms: each end of the sampler's delta may be off by one.
        double tickSlack = 100.0 * 2 * 10_000_000 / (innerEnd - innerStart);
        double low = 100.0 * (innerCpuEnd - innerCpuStart) / (outerEnd - outerStart) - tickSlack;
        double high = 100.0 * (outerCpuEnd - outerCpuStart) / (innerEnd - innerStart) + tickSlack;
        assertTrue(cpu >= low && cpu <= high, "cpu " + cpu + " % not in [" + low + ", " + high + "] " + x);
    }

    /** PostgreSQL's way: the postmaster's backends (its children) do the work, and proc.* must see it. */
    @Test
    void theServersChildProcessesAreSummedIntoItsCpuThreadsAndIo() throws IOException {
        AtomicLong nanos = new AtomicLong(5_000_000_000L);
        ProcSampler sampler = new ProcSampler(proc(), ProcessLocator.pid(4242).withProcDir(proc()), 100, nanos::get);
        writeSnapshot(false);
        writeChild(false);
        sampler.sample();
        writeSnapshot(true);
        writeChild(true);
        nanos.addAndGet(2_000_000_000L);
        Map<String, Double> m = sampler.sample();
        // parent +200 ticks, child +150 (utime 100, stime 30, a reaped grandchild's cutime 20), over 2 s
        assertEquals(175.0, m.get("proc.cpu_pct"), EPS);
        assertEquals(37.0 + 1, m.get("proc.threads"), EPS);
        assertEquals((4096000 + 1000000) / 2.0, m.get("proc.read_bytes_ps"), EPS);
        assertEquals(123456 * 1024.0, m.get("proc.rss_bytes"), EPS, "the main process's memory only");
    }

    private void writeChild(boolean second) throws IOException {
        Path task = proc().resolve("4242").resolve("task").resolve("4242");
        Files.createDirectories(task);
        Files.writeString(task.resolve("children"), "4300 \n");
        Path child = Files.createDirectories(proc().resolve("4300"));
        Files.writeString(
                child.resolve("stat"),
                "4300 (postgres) S 4242 4242 4242 0 -1 4194560 100 0 0 0 " + (second ? "200 80 20 0" : "100 50 0 0")
                        + " 20 0 1 0 12345 999999 5000 18446744073709551615\n");
        Files.writeString(child.resolve("status"), "Name:\tpostgres\nVmRSS:\t 9000 kB\nThreads:\t1\n");
        Files.writeString(child.resolve("io"), "read_bytes: " + (second ? 2000000 : 1000000) + "\nwrite_bytes: 0\n");
    }
}
