package org.ivsbench.monitor;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.ivsbench.monitor.ExpositionParser.Series;

/**
 * The {@code os.*} columns from node_exporter and the {@code proc.*} columns from process-exporter, with the
 * names, units and kinds {@link ProcSampler} gives them (the mapping is docs/monitor-exporters.md's table), so a
 * monitor.csv from exporters reads like one from /proc. Rates are over the time between two scrapes on this
 * client's monotonic clock; the exporters read the same kernel counters as ProcSampler.
 *
 * <p>Without a node_exporter the {@code os.*} columns are absent; without a process-exporter (or when it has no
 * group named {@code processGroup}) the {@code proc.*} cells are empty: CPU attribution to the server is off.
 * A failed scrape leaves its cells empty and drops the baseline, as ProcSampler does for an unreadable file.
 */
final class ExporterHostSampler implements HostSampler {
    private static final Logger LOG = LoggerFactory.getLogger(ExporterHostSampler.class);
    /** node_cpu_seconds_total modes, in /proc/stat's order (guest time is inside user and nice there too). */
    private static final List<String> CPU_MODES =
            List.of("user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal");

    private final ExporterScraper node; // null: no os.* columns
    private final ExporterScraper process; // null: proc.* cells empty
    private final String processGroup;
    private final LongSupplier nanoClock;
    private final Set<ExporterScraper> failing = new HashSet<>();
    private Snapshot previous;

    ExporterHostSampler(ExporterScraper node, ExporterScraper process, String processGroup, LongSupplier nanoClock) {
        if (process != null && (processGroup == null || processGroup.isBlank())) {
            throw new IllegalArgumentException("a process-exporter needs the server's group name");
        }
        this.node = node;
        this.process = process;
        this.processGroup = processGroup;
        this.nanoClock = nanoClock;
    }

    private record Proc(double cpuSeconds, Double rss, Double threads, Double readBytes, Double writeBytes) {}

    private record Snapshot(
            long nanos,
            double[] cpu,
            Map<String, Double> mem,
            Map<String, double[]> disks,
            Map<String, double[]> net,
            Proc proc) {}

    @Override
    public Map<String, Double> sample() {
        Snapshot now = read();
        Snapshot prev = previous;
        double seconds = prev == null ? 0 : (now.nanos - prev.nanos) / 1e9;
        boolean rates = prev != null && seconds > 0;
        Map<String, Double> out = new LinkedHashMap<>();
        if (node != null) {
            // A failed scrape (cpu null) on either side: no rates, rather than zeros.
            boolean nodeRates = rates && prev.cpu != null && now.cpu != null;
            CpuColumns.put(out, nodeRates ? prev.cpu : null, now.cpu);
            memory(out, now.mem);
            disks(out, nodeRates ? prev.disks : null, now.disks, seconds);
            net(out, nodeRates ? prev.net : null, now.net, seconds);
        }
        proc(out, rates ? prev.proc : null, now.proc, seconds);
        previous = now;
        return out;
    }

    // ---- scraping ------------------------------------------------------------------------------------------

    private Snapshot read() {
        long nanos = nanoClock.getAsLong();
        double[] cpu = null;
        Map<String, Double> mem = new LinkedHashMap<>();
        Map<String, double[]> disks = new LinkedHashMap<>();
        Map<String, double[]> net = new LinkedHashMap<>();
        if (node != null) {
            List<Series> all = scrape(node);
            if (all != null) {
                cpu = new double[CPU_MODES.size()];
                for (Series s : all) {
                    nodeSeries(s, cpu, mem, disks, net);
                }
            }
        }
        Proc proc = null;
        if (process != null) {
            List<Series> all = scrape(process);
            proc = all == null ? null : processGroup(all);
        }
        return new Snapshot(nanos, cpu, mem, disks, net, proc);
    }

    /** The exporter's samples, or null when it cannot be read now (logged once until it answers again). */
    private List<Series> scrape(ExporterScraper scraper) {
        try {
            List<Series> all = scraper.scrape();
            if (failing.remove(scraper)) {
                LOG.info("monitor: {} answers again", scraper);
            }
            return all;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } catch (Exception e) {
            if (failing.add(scraper)) {
                LOG.warn(
                        "monitor: scraping {} failed, its cells stay empty until it answers: {}",
                        scraper,
                        e.toString());
            }
            return null;
        }
    }

    private static void nodeSeries(
            Series s, double[] cpu, Map<String, Double> mem, Map<String, double[]> disks, Map<String, double[]> net) {
        String name = s.name();
        if (name.equals("node_cpu_seconds_total")) {
            int mode = CPU_MODES.indexOf(s.label("mode"));
            if (mode >= 0) {
                cpu[mode] += s.value();
            }
        } else if (name.startsWith("node_memory_") && name.endsWith("_bytes")) {
            mem.put(name.substring("node_memory_".length(), name.length() - "_bytes".length()), s.value());
        } else if (name.startsWith("node_disk_") && s.label("device") != null) {
            int field =
                    switch (name) {
                        case "node_disk_reads_completed_total" -> 0;
                        case "node_disk_read_bytes_total" -> 1;
                        case "node_disk_writes_completed_total" -> 2;
                        case "node_disk_written_bytes_total" -> 3;
                        case "node_disk_io_time_seconds_total" -> 4;
                        default -> -1;
                    };
            String device = s.label("device");
            if (field >= 0 && ProcSampler.isWholeDiskName(device)) {
                disks.computeIfAbsent(device, d -> new double[5])[field] = s.value();
            }
        } else if (name.equals("node_network_receive_bytes_total") && s.label("device") != null) {
            net.computeIfAbsent(s.label("device"), d -> new double[2])[0] = s.value();
        } else if (name.equals("node_network_transmit_bytes_total") && s.label("device") != null) {
            net.computeIfAbsent(s.label("device"), d -> new double[2])[1] = s.value();
        }
    }

    /** The group's figures; null when process-exporter has no such group (no matching process running). */
    private Proc processGroup(List<Series> all) {
        double cpu = 0;
        boolean found = false;
        Double rss = null;
        Double threads = null;
        Double read = null;
        Double write = null;
        for (Series s : all) {
            if (!processGroup.equals(s.label("groupname"))) {
                continue;
            }
            switch (s.name()) {
                case "namedprocess_namegroup_num_procs" -> found = s.value() > 0;
                case "namedprocess_namegroup_cpu_seconds_total" -> cpu += s.value(); // user + system
                case "namedprocess_namegroup_memory_bytes" -> {
                    if ("resident".equals(s.label("memtype"))) {
                        rss = s.value();
                    }
                }
                case "namedprocess_namegroup_num_threads" -> threads = s.value();
                case "namedprocess_namegroup_read_bytes_total" -> read = s.value();
                case "namedprocess_namegroup_write_bytes_total" -> write = s.value();
                default -> {}
            }
        }
        return found ? new Proc(cpu, rss, threads, read, write) : null;
    }

    // ---- columns, as ProcSampler names them ------------------------------------------------------------------

    private static void memory(Map<String, Double> out, Map<String, Double> mem) {
        Double total = mem.get("MemTotal");
        Double free = mem.get("MemFree");
        double cached = mem.getOrDefault("Buffers", 0.0)
                + mem.getOrDefault("Cached", 0.0)
                + mem.getOrDefault("SReclaimable", 0.0);
        boolean ok = total != null && free != null;
        out.put("os.mem.used_bytes", ok ? total - free - cached : null);
        out.put("os.mem.free_bytes", free);
        out.put("os.mem.cached_bytes", ok ? cached : null);
        out.put("os.mem.available_bytes", mem.get("MemAvailable"));
    }

    private static final String[] DISK_COLUMNS = {
        "read_bytes_ps", "write_bytes_ps", "read_ops_ps", "write_ops_ps", "io_ms_ps"
    };

    private static void disks(
            Map<String, Double> out, Map<String, double[]> before, Map<String, double[]> after, double seconds) {
        double[] total = new double[5];
        Map<String, double[]> perDevice = new LinkedHashMap<>();
        for (Map.Entry<String, double[]> e : after.entrySet()) {
            double[] b = before == null ? null : before.get(e.getKey());
            double[] r = null;
            if (b != null) {
                double[] a = e.getValue();
                r = new double[] {
                    nonNeg(a[1] - b[1]) / seconds,
                    nonNeg(a[3] - b[3]) / seconds,
                    nonNeg(a[0] - b[0]) / seconds,
                    nonNeg(a[2] - b[2]) / seconds,
                    nonNeg(a[4] - b[4]) * 1000 / seconds
                };
                if (!ProcSampler.isStackedDiskName(e.getKey())) {
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
            Map<String, Double> out, Map<String, double[]> before, Map<String, double[]> after, double seconds) {
        for (Map.Entry<String, double[]> e : after.entrySet()) {
            double[] b = before == null ? null : before.get(e.getKey());
            double[] a = e.getValue();
            out.put("os.net." + e.getKey() + ".rx_bytes_ps", b == null ? null : nonNeg(a[0] - b[0]) / seconds);
            out.put("os.net." + e.getKey() + ".tx_bytes_ps", b == null ? null : nonNeg(a[1] - b[1]) / seconds);
        }
    }

    private static void proc(Map<String, Double> out, Proc before, Proc after, double seconds) {
        boolean rates = before != null && after != null;
        out.put("proc.cpu_pct", rates ? 100.0 * nonNeg(after.cpuSeconds - before.cpuSeconds) / seconds : null);
        out.put("proc.rss_bytes", after == null ? null : after.rss);
        out.put("proc.threads", after == null ? null : after.threads);
        out.put("proc.read_bytes_ps", rates ? rate(before.readBytes, after.readBytes, seconds) : null);
        out.put("proc.write_bytes_ps", rates ? rate(before.writeBytes, after.writeBytes, seconds) : null);
    }

    private static Double rate(Double before, Double after, double seconds) {
        return before == null || after == null ? null : nonNeg(after - before) / seconds;
    }

    private static double nonNeg(double v) {
        return Math.max(0, v);
    }
}
