package org.ivsbench.merge;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.JsonNode;
import org.HdrHistogram.Histogram;

/**
 * The merged summary.json phases: counts, missed arrivals, bytes and error reasons added; response-time figures
 * from the added latency.hlog histograms, service time, start lag and missed lateness from the added
 * histograms.hlog totals (null when a shard has none); the rate's target and the active terminals added; the
 * measured span from the earliest measured start to the latest measured end, over which throughput is computed.
 */
final class SummaryMerger {
    private static final List<String> OUTCOMES = List.of("ok", "skipped", "aborted", "error");

    private SummaryMerger() {}

    static List<Map<String, Object>> phases(List<JsonNode> summaries, HistogramSums latency, HistogramSums totals) {
        TreeMap<Integer, List<JsonNode>> byIndex = new TreeMap<>();
        for (JsonNode s : summaries) {
            for (JsonNode p : s.path("phases")) {
                byIndex.computeIfAbsent(p.path("index").asInt(), k -> new ArrayList<>())
                        .add(p);
            }
        }
        List<Map<String, Object>> out = new ArrayList<>();
        byIndex.forEach((index, parts) -> out.add(phase(index, parts, latency, totals)));
        return out;
    }

    private static Map<String, Object> phase(
            int index, List<JsonNode> parts, HistogramSums latency, HistogramSums totals) {
        JsonNode first = parts.get(0);
        long startMs = Long.MAX_VALUE;
        long measuredStartMs = Long.MAX_VALUE;
        long endMs = Long.MIN_VALUE;
        long measuredEndMs = Long.MIN_VALUE;
        double target = 0;
        long active = 0;
        for (JsonNode p : parts) {
            startMs = Math.min(startMs, p.path("startMs").asLong());
            measuredStartMs =
                    Math.min(measuredStartMs, p.path("measuredStartMs").asLong());
            endMs = Math.max(endMs, p.path("endMs").asLong());
            measuredEndMs = Math.max(
                    measuredEndMs,
                    p.path("measuredStartMs").asLong()
                            + Math.round(p.path("measuredSeconds").asDouble() * 1000));
            target += p.path("rate").path("target").asDouble(0);
            active += p.path("activeTerminals").asLong();
        }
        double seconds = Math.max(0, measuredEndMs - measuredStartMs) / 1000.0;
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("index", index);
        m.put("name", first.path("name").asText());
        m.put("startMs", startMs);
        m.put("measuredStartMs", measuredStartMs);
        m.put("endMs", endMs);
        m.put("measuredSeconds", seconds);
        Map<String, Object> rate = new LinkedHashMap<>();
        String kind = first.path("rate").path("kind").asText();
        rate.put("kind", kind);
        rate.put("target", kind.equals("open") ? target : null);
        rate.put(
                "arrival",
                first.path("rate").path("arrival").isNull()
                        ? null
                        : first.path("rate").path("arrival").asText());
        m.put("rate", rate);
        m.put(
                "maxLatenessMs",
                first.path("maxLatenessMs").isNull()
                        ? null
                        : first.path("maxLatenessMs").asLong());
        m.put("activeTerminals", active);
        m.put("warmupOperations", sum(parts, "warmupOperations"));
        m.put("missed", sum(parts, "missed"));
        Map<String, Long> counts = counts(parts);
        long ops = counts.values().stream().mapToLong(Long::longValue).sum();
        m.put("operations", ops);
        m.put("throughput", rate(ops, seconds));
        m.put("goodput", rate(counts.get("ok"), seconds));
        m.put("counts", counts);
        String prefix = "p" + index + ".";
        m.put("responseTimeUs", latencyFigures(latency.totalMatching(prefix, "")));
        m.put("serviceTimeUs", latencyFigures(totals == null ? null : totals.totalMatching(prefix, ".service")));
        m.put("startLagUs", latencyFigures(totals == null ? null : totals.total(prefix + "startLag")));
        m.put("missedLatenessUs", latencyFigures(totals == null ? null : totals.total(prefix + "missedLateness")));
        m.put("bytesRead", sum(parts, "bytesRead"));
        m.put("bytesWritten", sum(parts, "bytesWritten"));
        m.put("transactions", transactions(parts, seconds, latency, totals, prefix));
        return m;
    }

    private static Map<String, Object> transactions(
            List<JsonNode> parts, double seconds, HistogramSums latency, HistogramSums totals, String prefix) {
        Map<String, List<JsonNode>> byType = new LinkedHashMap<>();
        for (JsonNode p : parts) {
            p.path("transactions").fields().forEachRemaining(e -> byType.computeIfAbsent(
                            e.getKey(), k -> new ArrayList<>())
                    .add(e.getValue()));
        }
        Map<String, Object> out = new LinkedHashMap<>();
        byType.forEach((type, ts) -> {
            Map<String, Long> counts = counts(ts);
            long ops = counts.values().stream().mapToLong(Long::longValue).sum();
            Map<String, Object> t = new LinkedHashMap<>();
            t.put("operations", ops);
            t.put("throughput", rate(ops, seconds));
            t.put("goodput", rate(counts.get("ok"), seconds));
            t.put("counts", counts);
            t.put("responseTimeUs", latencyFigures(latency.total(prefix + type)));
            t.put("serviceTimeUs", latencyFigures(totals == null ? null : totals.total(prefix + type + ".service")));
            t.put("bytesRead", sum(ts, "bytesRead"));
            t.put("bytesWritten", sum(ts, "bytesWritten"));
            Map<String, Long> errors = new TreeMap<>();
            for (JsonNode n : ts) {
                n.path("errors")
                        .fields()
                        .forEachRemaining(
                                e -> errors.merge(e.getKey(), e.getValue().asLong(), Long::sum));
            }
            t.put("errors", errors);
            out.put(type, t);
        });
        return out;
    }

    private static Map<String, Long> counts(List<JsonNode> parts) {
        Map<String, Long> counts = new LinkedHashMap<>();
        for (String o : OUTCOMES) {
            counts.put(
                    o,
                    parts.stream()
                            .mapToLong(p -> p.path("counts").path(o).asLong())
                            .sum());
        }
        return counts;
    }

    private static long sum(List<JsonNode> parts, String field) {
        return parts.stream().mapToLong(p -> p.path(field).asLong()).sum();
    }

    private static Double rate(long count, double seconds) {
        return seconds > 0 ? count / seconds : null;
    }

    static Map<String, Object> latencyFigures(Histogram h) {
        Map<String, Object> m = new LinkedHashMap<>();
        boolean some = h != null && h.getTotalCount() > 0;
        m.put("avg", some ? h.getMean() : null);
        m.put("stddev", some ? h.getStdDeviation() : null);
        m.put("p50", some ? h.getValueAtPercentile(50) : null);
        m.put("p90", some ? h.getValueAtPercentile(90) : null);
        m.put("p95", some ? h.getValueAtPercentile(95) : null);
        m.put("p99", some ? h.getValueAtPercentile(99) : null);
        m.put("p999", some ? h.getValueAtPercentile(99.9) : null);
        m.put("max", some ? h.getMaxValue() : null);
        return m;
    }
}
