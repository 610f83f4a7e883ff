package org.ivsbench.cli;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.testsupport.RunHarness;
import org.ivsbench.testsupport.SummaryTotals;
import org.ivsbench.testsupport.TestServers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real Prometheus (scripts/prometheus.sh: Debian's 2.42, scraping its target every second) scrapes a SQLite run's
 * --metrics-listen endpoint; after the run its query API returns, for every phase, type and outcome, the totals of
 * summary.json: operations, missed arrivals, warmup operations and the response-time histograms' counts; and for a
 * PostgreSQL run, the totals equal the server's own pg_stat_statements counts of the run's statements.
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

    private static final String TRUTH_TABLE = "prometheus_truth";

    /**
     * Prometheus's totals against what the server did, not only against the recorder's own summary: a ycsbivs run on
     * the private PostgreSQL (server-side extends: one UPDATE each, one SELECT per read; a phase with warmup reads),
     * on a table of this test's own, so pg_stat_statements' calls of the statements naming that table are exact while
     * other tests use the server. SELECTs = ReadRecord operations (every outcome) + warmup operations + extends the
     * cap refused; UPDATEs = ExtendRecord operations; rows updated = extends that wrote.
     */
    @Test
    void prometheusTotalsEqualTheServersOwnStatementCounts() throws Exception {
        String prometheus = TestServers.prometheusUrl();
        String target = TestServers.prometheusTarget();
        Path config = Files.writeString(
                tmp.resolve("pg.xml"),
                "<parameters>" + RunHarness.postgresConnection()
                        + "<terminals>2</terminals><randomSeed>11</randomSeed><recordcount>300</recordcount>"
                        + "<table>" + TRUTH_TABLE + "</table><maxfieldlength>100000</maxfieldlength>"
                        + "<extendmethod>server</extendmethod><monitor><enabled>false</enabled></monitor>"
                        + "<transactiontypes><transactiontype><name>ReadRecord</name></transactiontype>"
                        + "<transactiontype><name>ExtendRecord</name></transactiontype></transactiontypes><works>"
                        + "<work><name>warm</name><time>2</time><warmup>1</warmup><rate>300</rate>"
                        + "<weights>100,0</weights><distribution>uniform</distribution></work>"
                        + "<work><name>mixed</name><count>600</count><rate>unlimited</rate><weights>50,50</weights>"
                        + "<distribution>zipfian</distribution></work></works></parameters>");
        Path results = tmp.resolve("results");
        CliHarness.Result load = CliHarness.run(
                "-b", "ycsbivs", "-c", config.toString(), "--create", "--load", "-d", results.toString());
        assertEquals(0, load.code(), load.out() + load.err());
        Map<String, Long> before = statements();
        CliHarness.Result r = CliHarness.run(
                "-b",
                "ycsbivs",
                "-c",
                config.toString(),
                "--execute",
                "-d",
                results.toString(),
                "--metrics-listen",
                target,
                "--metrics-linger",
                "120");
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("Metrics: the final values were scraped"), r.out());
        Map<String, Long> after = statements();
        Map<String, Long> server = new TreeMap<>();
        for (String k : after.keySet()) {
            server.put(k, after.get(k) - before.getOrDefault(k, 0L));
        }
        Path run = runFolderWith(results, "summary.json");
        String runId = run.getFileName().toString();
        Map<String, Long> expected = SummaryTotals.of(run.resolve("summary.json"));
        Map<String, Long> got = Map.of();
        for (int attempt = 0; attempt < QUERY_ATTEMPTS && !got.equals(expected); attempt++) {
            if (attempt > 0) {
                Thread.sleep(200);
            }
            got = fromPrometheus(prometheus, runId);
        }
        assertEquals(expected, got, "Prometheus's last values of run " + runId + " against its summary.json");

        long reads = sum(got, "ops|", "|ReadRecord|");
        long extendsAll = sum(got, "ops|", "|ExtendRecord|");
        long skipped = sum(got, "ops|", "|ExtendRecord|skipped");
        long wrote = sum(got, "ops|", "|ExtendRecord|ok");
        long warmup = sum(got, "warmup|", "");
        assertTrue(reads > 300 && extendsAll > 100 && warmup > 0, got.toString());
        Map<String, Long> fromPrometheus = new TreeMap<>();
        fromPrometheus.put("SELECT calls", reads + warmup + skipped);
        fromPrometheus.put("UPDATE calls", extendsAll);
        fromPrometheus.put("UPDATE rows", wrote);
        Map<String, Long> fromServer = new TreeMap<>();
        fromServer.put("SELECT calls", server.getOrDefault("select|calls", 0L));
        fromServer.put("UPDATE calls", server.getOrDefault("update|calls", 0L));
        fromServer.put("UPDATE rows", server.getOrDefault("update|rows", 0L));
        assertEquals(
                fromServer,
                fromPrometheus,
                "Prometheus's totals against pg_stat_statements on " + TRUTH_TABLE + " (server deltas: " + server
                        + ")");
        System.out.println("Prometheus = pg_stat_statements for " + runId + ": " + fromServer);
    }

    /** pg_stat_statements' calls and rows of the statements naming the test's table, by first keyword. */
    private static Map<String, Long> statements() throws Exception {
        Map<String, Long> m = new TreeMap<>();
        try (Connection c = DriverManager.getConnection(
                        TestServers.postgresUrl(), TestServers.postgresUser(), TestServers.postgresPassword());
                PreparedStatement ps = c.prepareStatement("SELECT lower(split_part(ltrim(s.query), ' ', 1)),"
                        + " sum(s.calls)::bigint, sum(s.rows)::bigint FROM pg_stat_statements s"
                        + " JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = current_database()"
                        + " AND s.query ILIKE ? GROUP BY 1")) {
            ps.setString(1, "%" + TRUTH_TABLE + "%");
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    m.put(rs.getString(1) + "|calls", rs.getLong(2));
                    m.put(rs.getString(1) + "|rows", rs.getLong(3));
                }
            }
        }
        return m;
    }

    private static long sum(Map<String, Long> totals, String prefix, String part) {
        return totals.entrySet().stream()
                .filter(e -> e.getKey().startsWith(prefix) && e.getKey().contains(part))
                .mapToLong(Map.Entry::getValue)
                .sum();
    }

    private static Path runFolderWith(Path results, String file) throws Exception {
        try (var dirs = Files.list(results)) {
            return dirs.filter(d -> Files.isRegularFile(d.resolve(file)))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no run folder with " + file + " in " + results));
        }
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
