package org.ivsbench.experiment;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * trials.csv: per epoch and mode, the mean, sample standard deviation (n - 1; empty for one trial), minimum and
 * maximum over the trials' epochs.csv rows of each {@link #METRICS} column. A trial without a row for an epoch
 * and mode (it stopped earlier) or with an empty cell leaves that value out; {@code trials} counts the rows.
 */
final class TrialsCsv {
    static final List<String> METRICS = List.of(
            "data_bytes",
            "run_throughput",
            "run_lat_avg_us",
            "run_lat_p99_us",
            "run_read_throughput",
            "run_read_lat_avg_us",
            "run_read_lat_p99_us",
            "run_update_throughput",
            "run_update_lat_avg_us",
            "run_update_lat_p99_us",
            "extend_throughput",
            "extend_lat_avg_us",
            "extend_skipped");

    private TrialsCsv() {}

    static String header() {
        StringBuilder b = new StringBuilder("epoch,mode,trials");
        for (String m : METRICS) {
            b.append(',')
                    .append(m)
                    .append("_mean,")
                    .append(m)
                    .append("_sd,")
                    .append(m)
                    .append("_min,")
                    .append(m)
                    .append("_max");
        }
        return b.toString();
    }

    /** Writes {@code out} from the trials' epochs.csv files (in trial order; missing files count as none). */
    static void write(List<Path> epochsFiles, Path out) throws IOException {
        // (epoch, mode order) -> metric -> values over the trials
        Map<Integer, Map<String, List<Map<String, String>>>> rows = new TreeMap<>();
        for (Path f : epochsFiles) {
            if (!Files.exists(f)) {
                continue;
            }
            List<String> lines = Files.readAllLines(f, StandardCharsets.UTF_8);
            if (lines.isEmpty()) {
                continue;
            }
            String[] header = lines.get(0).split(",", -1);
            for (String line : lines.subList(1, lines.size())) {
                String[] cells = line.split(",", -1);
                if (cells.length != header.length) {
                    continue;
                }
                Map<String, String> row = new HashMap<>();
                for (int i = 0; i < header.length; i++) {
                    row.put(header[i], cells[i]);
                }
                rows.computeIfAbsent(Integer.parseInt(row.get("epoch")), e -> new TreeMap<>(TrialsCsv::byMode))
                        .computeIfAbsent(row.get("mode"), m -> new ArrayList<>())
                        .add(row);
            }
        }
        List<String> outLines = new ArrayList<>();
        outLines.add(header());
        for (Map.Entry<Integer, Map<String, List<Map<String, String>>>> e : rows.entrySet()) {
            for (Map.Entry<String, List<Map<String, String>>> m : e.getValue().entrySet()) {
                StringBuilder b = new StringBuilder();
                b.append(e.getKey())
                        .append(',')
                        .append(m.getKey())
                        .append(',')
                        .append(m.getValue().size());
                for (String metric : METRICS) {
                    List<Double> values = new ArrayList<>();
                    for (Map<String, String> row : m.getValue()) {
                        String v = row.get(metric);
                        if (v != null && !v.isEmpty()) {
                            values.add(Double.parseDouble(v));
                        }
                    }
                    for (String cell : stats(values)) {
                        b.append(',').append(cell);
                    }
                }
                outLines.add(b.toString());
            }
        }
        Files.write(out, outLines, StandardCharsets.UTF_8);
    }

    /** mean, sample sd (empty below two values), min, max; four empty cells for no values. */
    static List<String> stats(List<Double> values) {
        if (values.isEmpty()) {
            return List.of("", "", "", "");
        }
        double sum = 0;
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (double v : values) {
            sum += v;
            min = Math.min(min, v);
            max = Math.max(max, v);
        }
        double mean = sum / values.size();
        String sd = "";
        if (values.size() > 1) {
            double sq = 0;
            for (double v : values) {
                sq += (v - mean) * (v - mean);
            }
            sd = fmt(Math.sqrt(sq / (values.size() - 1)));
        }
        return List.of(fmt(mean), sd, fmt(min), fmt(max));
    }

    private static int byMode(String a, String b) {
        Mode ma = Mode.byLabel(a);
        Mode mb = Mode.byLabel(b);
        if (ma != null && mb != null) {
            return ma.compareTo(mb);
        }
        return a.compareTo(b);
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, "%.3f", v);
    }
}
