package org.ivsbench.benchbase;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import org.HdrHistogram.Histogram;

/**
 * Writes BenchBase's result files beside a finished run's own files, from those files alone (summary.json,
 * latency.hlog, config.xml, environment.json, monitor.csv), so BenchBase's tooling reads ivsbench runs. The names
 * are {@code <results folder name>.<kind>}, i.e. BenchBase's {@code <bench>_<time>.<kind>}. Column names and keys
 * are BenchBase's; how each value is defined here, and where it differs, is in docs/benchbase.md.
 */
public final class BenchBaseOutputs {
    public static final List<String> SUMMARY_LATENCY_KEYS = List.of(
            "Minimum Latency (microseconds)",
            "25th Percentile Latency (microseconds)",
            "Median Latency (microseconds)",
            "Average Latency (microseconds)",
            "75th Percentile Latency (microseconds)",
            "90th Percentile Latency (microseconds)",
            "95th Percentile Latency (microseconds)",
            "99th Percentile Latency (microseconds)",
            "Maximum Latency (microseconds)");
    public static final String SAMPLES_HEADER = "Time (seconds),Requests,Throughput (requests/second),"
            + "Minimum Latency (microseconds),25th Percentile Latency (microseconds),Median Latency (microseconds),"
            + "Average Latency (microseconds),75th Percentile Latency (microseconds),"
            + "90th Percentile Latency (microseconds),95th Percentile Latency (microseconds),"
            + "99th Percentile Latency (microseconds),Maximum Latency (microseconds)";
    public static final String RESULTS_HEADER = "Time (seconds),Throughput (requests/second),"
            + "Average Latency (millisecond),Minimum Latency (millisecond),25th Percentile Latency (millisecond),"
            + "Median Latency (millisecond),75th Percentile Latency (millisecond),"
            + "90th Percentile Latency (millisecond),95th Percentile Latency (millisecond),"
            + "99th Percentile Latency (millisecond),Maximum Latency (millisecond),tp (req/s) scaled";
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private BenchBaseOutputs() {}

    /** Writes the files into {@code dir} (a run's results folder); returns their paths. */
    public static List<Path> write(Path dir) throws IOException {
        String base = dir.getFileName().toString();
        JsonNode summary = JSON.readTree(dir.resolve("summary.json").toFile());
        LatencyLog latency = LatencyLog.read(dir.resolve("latency.hlog"));
        Map<String, String> config = ConfigLeaves.read(dir.resolve("config.xml"));
        int windowSeconds = Math.max(1, summary.path("windowSeconds").asInt(1));
        List<Path> written = new ArrayList<>();

        written.add(writeJson(dir.resolve(base + ".summary.json"), summary(summary, latency, config)));
        written.add(writeText(
                dir.resolve(base + ".samples.csv"), samples(latency.byWindow, latency.byWindow, windowSeconds)));
        written.add(writeText(
                dir.resolve(base + ".results.csv"), results(latency.byWindow, latency.byWindow, windowSeconds)));
        for (Map.Entry<String, TreeMap<Long, Histogram>> type : latency.byTypeWindow.entrySet()) {
            written.add(writeText(
                    dir.resolve(base + ".results." + type.getKey() + ".csv"),
                    results(type.getValue(), latency.byWindow, windowSeconds)));
        }
        JsonNode env = Files.exists(dir.resolve("environment.json"))
                ? JSON.readTree(dir.resolve("environment.json").toFile())
                : JSON.createObjectNode();
        written.add(writeJson(dir.resolve(base + ".params.json"), env.path("database")));
        written.add(writeJson(dir.resolve(base + ".metrics.json"), MonitorTotals.read(dir.resolve("monitor.csv"))));
        written.add(writeText(dir.resolve(base + ".config.xml"), Files.readString(dir.resolve("config.xml"))));
        return written;
    }

    /**
     * BenchBase's -jh file: per outcome class, the count of each transaction type over all phases. completed = ok
     * and skipped, aborted = aborted, unexpected = error; rejected (BenchBase's server-requested retries) has no
     * counterpart and stays empty.
     */
    public static void writeJsonHistograms(Path dir, Path file) throws IOException {
        JsonNode summary = JSON.readTree(dir.resolve("summary.json").toFile());
        Map<String, Map<String, Long>> classes = new TreeMap<>();
        for (String name : List.of("completed", "aborted", "rejected", "unexpected")) {
            classes.put(name, new TreeMap<>());
        }
        for (JsonNode phase : summary.path("phases")) {
            phase.path("transactions").fields().forEachRemaining(t -> {
                JsonNode c = t.getValue().path("counts");
                add(
                        classes.get("completed"),
                        t.getKey(),
                        c.path("ok").asLong() + c.path("skipped").asLong());
                add(classes.get("aborted"), t.getKey(), c.path("aborted").asLong());
                add(classes.get("unexpected"), t.getKey(), c.path("error").asLong());
            });
        }
        writeJson(file, classes);
    }

    private static void add(Map<String, Long> histogram, String type, long count) {
        if (count > 0) {
            histogram.merge(type, count, Long::sum);
        }
    }

    static Map<String, Object> summary(JsonNode summary, LatencyLog latency, Map<String, String> config) {
        long operations = 0;
        long ok = 0;
        double seconds = 0;
        for (JsonNode phase : summary.path("phases")) {
            operations += phase.path("operations").asLong();
            ok += phase.path("counts").path("ok").asLong();
            seconds += phase.path("measuredSeconds").asDouble();
        }
        Map<String, Object> m = new TreeMap<>(); // BenchBase writes its keys sorted
        m.put("Current Timestamp (milliseconds)", System.currentTimeMillis());
        m.put("DBMS Type", summary.path("database").path("type").asText(config.getOrDefault("type", "")));
        m.put("DBMS Version", summary.path("database").path("version").asText(""));
        m.put("Benchmark Type", summary.path("benchmark").asText());
        m.put("Measured Requests", operations);
        m.put("Throughput (requests/second)", seconds > 0 ? operations / seconds : 0.0);
        m.put("Goodput (requests/second)", seconds > 0 ? ok / seconds : 0.0);
        m.put("Latency Distribution", distribution(latency.total));
        for (String key : List.of("isolation", "scalefactor", "terminals")) {
            m.put(key, config.get(key));
        }
        return m;
    }

    /** BenchBase's "Latency Distribution" map, in its order; -1 throughout when nothing was measured. */
    static Map<String, Long> distribution(Histogram h) {
        long[] v = stats(h);
        Map<String, Long> m = new LinkedHashMap<>();
        for (int i = 0; i < SUMMARY_LATENCY_KEYS.size(); i++) {
            m.put(SUMMARY_LATENCY_KEYS.get(i), v[i]);
        }
        return m;
    }

    /** min, p25, median, average, p75, p90, p95, p99, max in microseconds (BenchBase truncates to whole µs). */
    private static long[] stats(Histogram h) {
        if (h == null || h.getTotalCount() == 0) {
            return new long[] {-1, -1, -1, -1, -1, -1, -1, -1, -1};
        }
        return new long[] {
            h.getMinValue(),
            h.getValueAtPercentile(25),
            h.getValueAtPercentile(50),
            (long) h.getMean(),
            h.getValueAtPercentile(75),
            h.getValueAtPercentile(90),
            h.getValueAtPercentile(95),
            h.getValueAtPercentile(99),
            h.getMaxValue()
        };
    }

    /** One row per window from the run's first to its last (empty windows included, as BenchBase's buckets are). */
    static String samples(TreeMap<Long, Histogram> windows, TreeMap<Long, Histogram> axis, int windowSeconds) {
        StringWriter text = new StringWriter();
        PrintWriter out = new PrintWriter(text);
        out.print(SAMPLES_HEADER + "\n");
        for (long start : timeAxis(axis, windowSeconds)) {
            Histogram h = windows.get(start);
            long count = h == null ? 0 : h.getTotalCount();
            long[] v = stats(h);
            out.printf(
                    Locale.ROOT,
                    "%d,%d,%.3f,%d,%d,%d,%d,%d,%d,%d,%d,%d\n",
                    seconds(axis, start),
                    count,
                    (double) count / windowSeconds,
                    v[0],
                    v[1],
                    v[2],
                    v[3],
                    v[4],
                    v[5],
                    v[6],
                    v[7],
                    v[8]);
        }
        out.flush();
        return text.toString();
    }

    static String results(TreeMap<Long, Histogram> windows, TreeMap<Long, Histogram> axis, int windowSeconds) {
        StringWriter text = new StringWriter();
        PrintWriter out = new PrintWriter(text);
        out.print(RESULTS_HEADER + "\n");
        for (long start : timeAxis(axis, windowSeconds)) {
            Histogram h = windows.get(start);
            long count = h == null ? 0 : h.getTotalCount();
            double avg = h == null || count == 0 ? -1 : h.getMean();
            long[] v = stats(h);
            out.printf(
                    Locale.ROOT,
                    "%d,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f\n",
                    seconds(axis, start),
                    (double) count / windowSeconds,
                    avg / 1e3,
                    v[0] / 1e3,
                    v[1] / 1e3,
                    v[2] / 1e3,
                    v[4] / 1e3,
                    v[5] / 1e3,
                    v[6] / 1e3,
                    v[7] / 1e3,
                    v[8] / 1e3,
                    1e3 / avg);
        }
        out.flush();
        return text.toString();
    }

    private static List<Long> timeAxis(TreeMap<Long, Histogram> axis, int windowSeconds) {
        // The windows that exist, with the empty windows between them filled in (the log has no empty ones).
        List<Long> starts = new ArrayList<>();
        long step = windowSeconds * 1000L;
        Long previous = null;
        for (long t : axis.keySet()) {
            if (previous != null) {
                for (long gap = previous + step; gap <= t - step; gap += step) {
                    starts.add(gap);
                }
            }
            starts.add(t);
            previous = t;
        }
        return starts;
    }

    private static long seconds(TreeMap<Long, Histogram> axis, long start) {
        return Math.round((start - axis.firstKey()) / 1000.0);
    }

    private static Path writeJson(Path file, Object value) throws IOException {
        return writeText(file, JSON.writeValueAsString(value) + "\n");
    }

    private static Path writeText(Path file, String text) throws IOException {
        Files.writeString(file, text, StandardCharsets.UTF_8);
        return file;
    }
}
