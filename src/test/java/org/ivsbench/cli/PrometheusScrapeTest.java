package org.ivsbench.cli;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.testsupport.SummaryTotals;
import org.ivsbench.testsupport.TestServers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real Prometheus (scripts/prometheus.sh: Debian's 2.42, scraping its target every second) scrapes a SQLite run's
 * --metrics-listen endpoint; after the run its query API returns, for every phase, type and outcome, the totals of
 * summary.json: operations, missed arrivals, warmup operations and the response-time histograms' counts.
 */
class PrometheusScrapeTest {
    /** How many times the query API is asked before the comparison counts (the last scrape is being stored). */
    private static final int QUERY_ATTEMPTS = 50;

    @TempDir
    Path tmp;

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void prometheusQueriesOfAFinishedRunEqualItsSummary() throws Exception {
        String prometheus = TestServers.prometheusUrl();
        String target = TestServers.prometheusTarget();
        Path results = tmp.resolve("results");
        CliHarness.Result r = CliHarness.run(
                "-b",
                "ycsb",
                "-c",
                MetricsRunConfig.write(tmp, "").toString(),
                "--create",
                "--load",
                "--execute",
                "-d",
                results.toString(),
                "--metrics-listen",
                target,
                "--metrics-linger",
                "120");
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(
                r.out().contains("Metrics: the final values were scraped"), "Prometheus scraped the end: " + r.out());
        Path run;
        try (var dirs = Files.list(results)) {
            run = dirs.findFirst().orElseThrow();
        }
        String runId = run.getFileName().toString();
        Map<String, Long> expected = SummaryTotals.of(run.resolve("summary.json"));
        assertTrue(expected.get("warmup|warm") > 0, expected.toString());

        Map<String, Long> got = Map.of();
        for (int attempt = 0; attempt < QUERY_ATTEMPTS && !got.equals(expected); attempt++) {
            if (attempt > 0) {
                Thread.sleep(200);
            }
            got = fromPrometheus(prometheus, runId);
        }
        assertEquals(expected, got, "Prometheus's last values of run " + runId + " against its summary.json");
        long operations = expected.entrySet().stream()
                .filter(e -> e.getKey().startsWith("ops|"))
                .mapToLong(Map.Entry::getValue)
                .sum();
        assertTrue(operations > 300, "the run measured operations: " + operations);
        System.out.println("Prometheus = summary.json for " + runId + ": " + operations + " operations; " + expected);
    }

    /** The run's last stored values, keyed as {@link SummaryTotals} keys summary.json's. */
    private Map<String, Long> fromPrometheus(String base, String runId) throws Exception {
        Map<String, Long> m = new TreeMap<>();
        for (JsonNode s : query(base, "ivsbench_operations_total", runId)) {
            JsonNode l = s.get("metric");
            m.put(
                    "ops|" + l.get("phase").asText() + "|" + l.get("type").asText() + "|"
                            + l.get("outcome").asText(),
                    value(s));
        }
        for (JsonNode s : query(base, "ivsbench_missed_arrivals_total", runId)) {
            m.put("missed|" + s.get("metric").get("phase").asText(), value(s));
        }
        for (JsonNode s : query(base, "ivsbench_warmup_operations_total", runId)) {
            m.put("warmup|" + s.get("metric").get("phase").asText(), value(s));
        }
        for (JsonNode s : query(base, "ivsbench_response_time_seconds_count", runId)) {
            JsonNode l = s.get("metric");
            m.put("count|" + l.get("phase").asText() + "|" + l.get("type").asText(), value(s));
        }
        return m;
    }

    /**
     * The last stored value of each series of {@code metric} for the run: after the run the target is down and its
     * series are marked stale, which an instant query of the plain name would honour; last_over_time reads the last
     * scraped sample.
     */
    private JsonNode query(String base, String metric, String runId) throws Exception {
        String promql = "last_over_time(" + metric + "{job=\"ivsbench\",run_id=\"" + runId + "\"}[15m])";
        HttpRequest get = HttpRequest.newBuilder(
                        URI.create(base + "/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8)))
                .build();
        HttpResponse<String> r = http.send(get, HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        JsonNode body = new ObjectMapper().readTree(r.body());
        assertEquals("success", body.get("status").asText(), r.body());
        return body.get("data").get("result");
    }

    private static long value(JsonNode series) {
        double v = Double.parseDouble(series.get("value").get(1).asText());
        assertEquals(Math.rint(v), v, "a count: " + series);
        return (long) v;
    }
}
