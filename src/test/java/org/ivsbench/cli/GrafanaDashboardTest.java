package org.ivsbench.cli;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.testsupport.Exporters;
import org.ivsbench.testsupport.TestServers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * docker/grafana/ivsbench-dashboard.json against a real Prometheus: every panel query, with the dashboard's
 * variables filled in, parses (promtool check rules on a rule file made of them, which also rejects a broken one);
 * after a one-epoch SQLite experiment served with --metrics-listen and scraped by the private Prometheus
 * (scripts/prometheus.sh), every ivsbench query returns finite values over the run, and with the suite's node and
 * mysqld exporters (scripts/exporters.sh, on the private MariaDB) added as targets meanwhile, every host and MariaDB
 * query does too. The query variables
 * offer the run's run_id and the exporters' instances.
 */
// Longer than the suite's 5-minute default (docs/trust.md, "Time limits"): an experiment scraped by Prometheus, then
// up to 30 s per query for its data.
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class GrafanaDashboardTest {
    static final Path DASHBOARD = Path.of("docker/grafana/ivsbench-dashboard.json");
    private static final String PRESET = "config/experiments/ycsbivs_quick_sqlite.xml";
    /** How long a query may take to show data: the last scrapes are still being stored. */
    private static final long DATA_WAIT_MILLIS = 30_000;

    @TempDir
    Path tmp;

    private final HttpClient http = HttpClient.newHttpClient();
    private final ObjectMapper json = new ObjectMapper();

    /** One panel query: where it is, whether Grafana runs it as an instant query, and its PromQL. */
    record Query(String where, boolean instant, String expr) {}

    /** Every target's expr of every panel (rows' nested panels included), in order. */
    static List<Query> queries(JsonNode dashboard) {
        List<Query> out = new ArrayList<>();
        collect(dashboard.get("panels"), out);
        return out;
    }

    private static void collect(JsonNode panels, List<Query> out) {
        for (JsonNode p : panels) {
            if (p.has("panels")) {
                collect(p.get("panels"), out);
            }
            for (JsonNode t : p.path("targets")) {
                out.add(new Query(
                        "panel '" + p.get("title").asText() + "' "
                                + t.get("refId").asText(),
                        t.path("instant").asBoolean(false) && !t.path("range").asBoolean(false),
                        t.get("expr").asText()));
            }
        }
    }

    /** {@code expr} with the dashboard's variables replaced; every {@code $} must be one of them. */
    static String fill(String expr, Map<String, String> values) {
        String e = expr;
        for (Map.Entry<String, String> v : values.entrySet()) {
            e = e.replace("$" + v.getKey(), v.getValue());
        }
        assertFalse(e.contains("$"), "a variable the test does not know in: " + expr);
        return e;
    }

    @Test
    void everyPanelQueryParsesAndReturnsDataForARealRun() throws Exception {
        JsonNode dashboard = json.readTree(DASHBOARD.toFile());
        List<Query> queries = queries(dashboard);
        assertTrue(queries.size() >= 15, "panel queries: " + queries.size());
        for (JsonNode p : dashboard.get("panels")) {
            if (p.has("targets")) {
                assertEquals(
                        "${datasource}",
                        p.get("datasource").get("uid").asText(),
                        p.get("title").asText());
            }
        }
        String prometheus = TestServers.prometheusUrl();
        String target = TestServers.prometheusTarget();
        Path sdDir = Path.of(TestServers.prometheusSdDir());
        HttpResponse<String> config = http.send(
                HttpRequest.newBuilder(URI.create(prometheus + "/api/v1/status/config"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertTrue(
                config.body().contains(sdDir.toString()),
                "the Prometheus at " + prometheus + " does not read " + sdDir
                        + " (started by an older scripts/prometheus.sh? stop and start it): " + config.body());

        try (Exporters exporters = new Exporters(sdDir, "grafana-dashboard-test")) {
            // Prometheus finds the exporters through file_sd: wait until it scrapes both, so that the run's window
            // holds their samples (on a busy box discovery can lag a short run).
            awaitScraped(prometheus, exporters.node());
            awaitScraped(prometheus, exporters.mysqld());
            double start = System.currentTimeMillis() / 1000.0;
            String runPrefix = runExperiment(target);
            double end = System.currentTimeMillis() / 1000.0 + 1;

            Map<String, String> values = new LinkedHashMap<>();
            values.put("__rate_interval", "5s");
            values.put("__range", "15m");
            values.put("run_id", regex(runPrefix) + "/.*");
            values.put("node", regex(exporters.node()));
            values.put("mysqld", regex(exporters.mysqld()));
            checkParses(queries, values);

            List<String> exporterQueries = new ArrayList<>();
            for (Query q : queries) {
                boolean client = q.expr().contains("ivsbench_");
                if (!client) {
                    exporterQueries.add(q.where());
                }
                assertReturnsData(prometheus, q, fill(q.expr(), values), start, end, !client);
            }
            assertTrue(exporterQueries.size() >= 6, "host and MariaDB panels: " + exporterQueries);
            Map<String, String> offered = new LinkedHashMap<>();
            offered.put("run_id", runPrefix + "/epoch-001/main/run");
            offered.put("node", exporters.node());
            offered.put("mysqld", exporters.mysqld());
            checkVariables(prometheus, dashboard, offered, start, end);
            System.out.println(
                    "Grafana dashboard: " + queries.size() + " queries parse and return data for " + runPrefix);
        }
    }

    /**
     * Each query variable's {@code label_values(METRIC, LABEL)}, asked of the label values API as Grafana asks it,
     * offers the value the run (or exporter) gave it.
     */
    private void checkVariables(String base, JsonNode dashboard, Map<String, String> offered, double start, double end)
            throws Exception {
        Pattern labelValues = Pattern.compile("label_values\\((\\w+), (\\w+)\\)");
        int checked = 0;
        for (JsonNode v : dashboard.get("templating").get("list")) {
            String want = offered.get(v.get("name").asText());
            if (!"query".equals(v.get("type").asText()) || want == null) {
                continue;
            }
            Matcher m = labelValues.matcher(v.get("query").asText());
            assertTrue(m.matches(), v.toString());
            String url = base + "/api/v1/label/" + m.group(2) + "/values?match[]=" + enc(m.group(1)) + "&start=" + start
                    + "&end=" + end;
            HttpResponse<String> r =
                    http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode(), r.body());
            List<String> values = new ArrayList<>();
            json.readTree(r.body()).get("data").forEach(n -> values.add(n.asText()));
            assertTrue(values.contains(want), "variable " + v.get("name") + " offers " + want + ": " + values);
            checked++;
        }
        assertEquals(offered.size(), checked, "query variables checked: " + offered.keySet());
    }

    /** Runs the quick SQLite experiment for one epoch, scraped by the private Prometheus; returns its run_id prefix. */
    private String runExperiment(String target) throws Exception {
        String xml = Files.readString(Path.of(PRESET))
                .replace("jdbc:sqlite:results/ycsbivs_quick.db", "jdbc:sqlite:" + tmp.resolve("quick.db"))
                .replaceAll("<epochs>\\d+</epochs>", "<epochs>1</epochs>")
                .replaceAll("<recordcount>\\d+</recordcount>", "<recordcount>200</recordcount>")
                .replaceAll("<enabled>true</enabled>", "<enabled>false</enabled>");
        assertTrue(xml.contains("<epochs>1</epochs>"), xml);
        Path config = tmp.resolve("quick.xml");
        Files.writeString(config, xml);
        Path results = tmp.resolve("results");
        CliHarness.Result r = CliHarness.run(
                "-b",
                "ycsbivs",
                "-c",
                config.toString(),
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
        assertTrue(r.out().contains("Metrics: the final values were scraped"), r.out());
        try (var dirs = Files.list(results)) {
            return dirs.findFirst().orElseThrow().getFileName().toString();
        }
    }

    /**
     * promtool check rules on a rule file with one recording rule per query: it parses every expression; the same
     * file with one expression broken must fail, so the check is known to look.
     */
    private void checkParses(List<Query> queries, Map<String, String> values) throws Exception {
        List<String> exprs = queries.stream().map(q -> fill(q.expr(), values)).toList();
        String ok = promtool(ruleFile("parses", exprs));
        assertTrue(ok.contains("SUCCESS: " + exprs.size() + " rules found"), ok);
        List<String> broken = new ArrayList<>(exprs);
        broken.set(0, broken.get(0).replaceFirst("\\)", ""));
        assertNotEquals(broken.get(0), exprs.get(0));
        String bad = promtool(ruleFile("broken", broken));
        assertTrue(bad.startsWith("exit 1"), "promtool rejects a broken expression: " + bad);
    }

    private Path ruleFile(String name, List<String> exprs) throws Exception {
        ObjectNode file = json.createObjectNode();
        ObjectNode group = file.putArray("groups").addObject().put("name", "dashboard");
        ArrayNode rules = group.putArray("rules");
        for (int i = 0; i < exprs.size(); i++) {
            rules.addObject().put("record", "dashboard_query_" + i).put("expr", exprs.get(i));
        }
        // JSON is YAML: promtool reads it as a rule file.
        Path f = tmp.resolve(name + "-rules.yml");
        json.writeValue(f.toFile(), file);
        return f;
    }

    /** "exit N" and promtool's output. */
    private static String promtool(Path rules) throws Exception {
        Process p;
        try {
            p = new ProcessBuilder("promtool", "check", "rules", rules.toString())
                    .redirectErrorStream(true)
                    .start();
        } catch (java.io.IOException e) {
            TestServers.missing("promtool (Debian's prometheus package) is not on PATH: " + e.getMessage());
            throw e;
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return "exit " + p.waitFor() + "\n" + out;
    }

    /**
     * Waits (up to DATA_WAIT_MILLIS) until Prometheus holds two successful scrapes of {@code instance}: the query
     * has a value only then.
     */
    private void awaitScraped(String base, String instance) throws Exception {
        String promql = "sum_over_time(up{instance=\"" + instance + "\"}[10s]) >= 2";
        assertReturnsData(base, new Query("two scrapes of " + instance, true, promql), promql, 0, 0, true);
    }

    /**
     * The query, as Grafana runs it over the run (range: 1 s steps), has at least one finite value. An exporter's
     * query ({@code movingEnd}) describes the host, not the run: its window may grow while the test waits.
     */
    private void assertReturnsData(String base, Query q, String promql, double start, double end, boolean movingEnd)
            throws Exception {
        long deadline = System.currentTimeMillis() + DATA_WAIT_MILLIS;
        String last;
        while (true) {
            double to = movingEnd ? Math.max(end, System.currentTimeMillis() / 1000.0) : end;
            String url = q.instant()
                    ? base + "/api/v1/query?time=" + to + "&query=" + enc(promql)
                    : base + "/api/v1/query_range?start=" + start + "&end=" + to + "&step=1&query=" + enc(promql);
            HttpResponse<String> r =
                    http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode(), q.where() + ": " + promql + "\n" + r.body());
            JsonNode body = json.readTree(r.body());
            assertEquals("success", body.get("status").asText(), r.body());
            if (finiteValues(body.get("data").get("result")) > 0) {
                return;
            }
            last = r.body();
            if (System.currentTimeMillis() > deadline) {
                break;
            }
            Thread.sleep(500);
        }
        throw new AssertionError(q.where() + " returned no data for the run: " + promql + "\n" + last);
    }

    private static int finiteValues(JsonNode result) {
        int n = 0;
        for (JsonNode series : result) {
            List<JsonNode> points = new ArrayList<>();
            series.path("values").forEach(points::add);
            if (series.has("value")) {
                points.add(series.get("value"));
            }
            for (JsonNode point : points) {
                String v = point.get(1).asText(); // "NaN", "+Inf" and "-Inf" are not data
                if (!v.contains("Inf") && !v.contains("NaN") && Double.isFinite(Double.parseDouble(v))) {
                    n++;
                }
            }
        }
        return n;
    }

    /** {@code s} as a regular expression matching only itself, inside a PromQL double-quoted string. */
    static String regex(String s) {
        StringBuilder b = new StringBuilder();
        for (char c : s.toCharArray()) {
            if (".+*?()[]{}|^$\\".indexOf(c) >= 0) {
                b.append("\\\\");
            }
            b.append(c);
        }
        return b.toString();
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
