package org.ivsbench.monitor;

import java.util.Map;

/**
 * The host's CPU columns of monitor.csv ({@code os.cpu.usr_pct} ... {@code os.cpu.idle_pct}) from two readings of
 * the eight /proc/stat time counters (user nice system idle iowait irq softirq steal; guest time is already inside
 * user/nice), as {@link ProcSampler} reads them and {@link ExporterHostSampler} gets them from node_exporter.
 */
final class CpuColumns {
    private static final String[] NAMES = {
        "os.cpu.usr_pct", "os.cpu.sys_pct", "os.cpu.iowait_pct", "os.cpu.steal_pct", "os.cpu.idle_pct"
    };

    private CpuColumns() {}

    /** Puts the five shares of the time between the readings; null each when a reading is missing or no time passed. */
    static void put(Map<String, Double> out, double[] before, double[] after) {
        double[] pct = new double[5];
        boolean ok = before != null && after != null;
        if (ok) {
            double[] d = new double[8];
            double total = 0;
            for (int i = 0; i < 8; i++) {
                d[i] = Math.max(0, after[i] - before[i]);
                total += d[i];
            }
            ok = total > 0;
            if (ok) {
                pct[0] = 100.0 * (d[0] + d[1]) / total;
                pct[1] = 100.0 * (d[2] + d[5] + d[6]) / total;
                pct[2] = 100.0 * d[4] / total;
                pct[3] = 100.0 * d[7] / total;
                pct[4] = 100.0 * d[3] / total;
            }
        }
        for (int i = 0; i < 5; i++) {
            out.put(NAMES[i], ok ? pct[i] : null);
        }
    }

    /** The counters as doubles (null stays null). */
    static double[] of(long[] counters) {
        if (counters == null) {
            return null;
        }
        double[] d = new double[counters.length];
        for (int i = 0; i < counters.length; i++) {
            d[i] = counters[i];
        }
        return d;
    }
}
