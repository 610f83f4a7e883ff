package org.ivsbench.merge;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.HdrHistogram.Histogram;

/**
 * samples.csv of the shards, one row per window x phase x type: the shards' windows share the wall-clock grid, so
 * rows of one (time_ms, phase, type) are added. Counts, missed arrivals and rates add (each shard's rate is over its
 * own measured part of the window); response-time columns come from the window's added latency.hlog histograms, so
 * they are exact. Service time and missed lateness per window are not logged as histograms: svc_avg_us is the
 * count-weighted mean (exact), svc_p99_us the largest shard's (an upper bound), missed_late_max_us the largest
 * (exact) and missed_late_p50_us is kept only where one shard missed arrivals in the window (else empty).
 */
final class SamplesMerger {
    static final String HEADER = "time_ms,window_ms,phase,type,ok,skipped,aborted,error,missed,throughput,"
            + "goodput,lat_avg_us,lat_p50_us,lat_p95_us,lat_p99_us,lat_max_us,svc_avg_us,svc_p99_us,measured_ms,"
            + "missed_late_p50_us,missed_late_max_us";

    private final Map<String, Row> rows = new LinkedHashMap<>();

    void add(Path samplesCsv) throws IOException {
        List<String> lines = Files.readAllLines(samplesCsv, StandardCharsets.UTF_8);
        if (lines.isEmpty() || !lines.get(0).equals(HEADER)) {
            throw new IOException(samplesCsv + ": not a samples.csv of this version (header differs)");
        }
        for (String line : lines.subList(1, lines.size())) {
            if (line.isBlank()) {
                continue;
            }
            String[] c = line.split(",", -1);
            if (c.length != 21) {
                throw new IOException(samplesCsv + ": a row with " + c.length + " columns: " + line);
            }
            String key = c[0] + "," + c[2] + "," + c[3];
            rows.computeIfAbsent(key, k -> new Row(Long.parseLong(c[0]), Integer.parseInt(c[2]), c[3], rows.size()))
                    .add(c);
        }
    }

    void write(Path file, HistogramSums latency) throws IOException {
        List<Row> sorted = new ArrayList<>(rows.values());
        sorted.sort(Comparator.comparingLong((Row r) -> r.timeMs)
                .thenComparingInt(r -> r.phase)
                .thenComparing(r -> r.type.equals("ALL"))
                .thenComparingInt(r -> r.order));
        try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            out.write(HEADER);
            out.newLine();
            for (Row r : sorted) {
                out.write(r.format(latency));
                out.newLine();
            }
        }
    }

    private static final class Row {
        final long timeMs;
        final int phase;
        final String type;
        final int order;
        long windowMs;
        final long[] counts = new long[5]; // ok, skipped, aborted, error, missed
        Double throughput;
        Double goodput;
        double svcWeighted;
        long svcCount;
        Long svcP99;
        long measuredMs;
        int shardsMissing;
        String missedP50 = "";
        Long missedMax;

        Row(long timeMs, int phase, String type, int order) {
            this.timeMs = timeMs;
            this.phase = phase;
            this.type = type;
            this.order = order;
        }

        void add(String[] c) {
            windowMs = Math.max(windowMs, Long.parseLong(c[1]));
            long ops = 0;
            for (int i = 0; i < 5; i++) {
                counts[i] += Long.parseLong(c[4 + i]);
                ops += i < 4 ? Long.parseLong(c[4 + i]) : 0;
            }
            throughput = plus(throughput, c[9]);
            goodput = plus(goodput, c[10]);
            if (!c[16].isEmpty()) {
                svcWeighted += Double.parseDouble(c[16]) * ops;
                svcCount += ops;
            }
            if (!c[17].isEmpty()) {
                svcP99 = svcP99 == null ? Long.parseLong(c[17]) : Math.max(svcP99, Long.parseLong(c[17]));
            }
            measuredMs = Math.max(measuredMs, Long.parseLong(c[18]));
            if (!c[20].isEmpty()) {
                shardsMissing++;
                missedP50 = c[19];
                long max = Long.parseLong(c[20]);
                missedMax = missedMax == null ? max : Math.max(missedMax, max);
            }
        }

        private static Double plus(Double sum, String cell) {
            if (cell.isEmpty()) {
                return sum;
            }
            return (sum == null ? 0 : sum) + Double.parseDouble(cell);
        }

        String format(HistogramSums latency) {
            String prefix = "p" + phase + ".";
            Histogram h = type.equals("ALL") ? latency.atWithPrefix(timeMs, prefix) : latency.at(timeMs, prefix + type);
            StringBuilder sb = new StringBuilder(160);
            sb.append(timeMs)
                    .append(',')
                    .append(windowMs)
                    .append(',')
                    .append(phase)
                    .append(',')
                    .append(type);
            for (long n : counts) {
                sb.append(',').append(n);
            }
            sb.append(',')
                    .append(num(throughput))
                    .append(',')
                    .append(num(goodput))
                    .append(',');
            if (h != null && h.getTotalCount() > 0) {
                sb.append(num(h.getMean()))
                        .append(',')
                        .append(h.getValueAtPercentile(50))
                        .append(',')
                        .append(h.getValueAtPercentile(95))
                        .append(',')
                        .append(h.getValueAtPercentile(99))
                        .append(',')
                        .append(h.getMaxValue());
            } else {
                sb.append(",,,,");
            }
            sb.append(',').append(svcCount > 0 ? num(svcWeighted / svcCount) : "");
            sb.append(',').append(svcP99 == null ? "" : svcP99.toString());
            sb.append(',').append(measuredMs);
            sb.append(',').append(shardsMissing == 1 ? missedP50 : "");
            sb.append(',').append(missedMax == null ? "" : missedMax.toString());
            return sb.toString();
        }

        private static String num(Double v) {
            return v == null ? "" : String.format(Locale.ROOT, "%.3f", v);
        }
    }
}
