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
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
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
import org.ivsbench.testsupport.SummaryTotals;
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
 * query does too. The count panels' expressions over the counters' last values equal summary.json's totals, and the
 * runs, epoch and mode panels show the experiment's. The test waits for events (the run's final scrape stored, the
 * exporters scraped after the run), not for data to appear. The query variables offer the run's run_id and the
 * exporters' instances.
 */
// Longer than the suite's 5-minute default (docs/trust.md, "Time limits"): an experiment scraped by Prometheus, then
// bounded waits (120 s each) for its scrapes.
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class GrafanaDashboardTest {
    static final Path DASHBOARD = Path.of("docker/grafana/ivsbench-dashboard.json");
    private static final String PRESET = "config/experiments/ycsbivs_quick_sqlite.xml";
    /**
     * Only ends a hung wait: each wait is for an event (a scrape stored), and on a busy box storing one may lag; the
     * failure then says what Prometheus answered last.
     */
    private static final long EVENT_WAIT_MILLIS = 120_000;

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
            // The events the queries need: the run's final scrape stored (the run waited until Prometheus asked for
            // it), and a scrape of each exporter after the run, so an exporter panel's window covers all of it.
            awaitEvent(
                    prometheus,
                    "the run's final scrape",
                    "max_over_time(ivsbench_finished{job=\"ivsbench\"}[" + (long) Math.ceil(end - start + 1)
                            + "s]) == 1",
                    end);
            for (String instance : List.of(exporters.node(), exporters.mysqld())) {
                awaitEvent(
                        prometheus,
                        "a scrape of " + instance + " after the run",
                        "timestamp(up{instance=\"" + instance + "\"}) >= " + end,
                        0);
            }
            double exportersEnd = System.currentTimeMillis() / 1000.0;

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
                assertReturnsData(prometheus, q, fill(q.expr(), values), start, client ? end : exportersEnd);
            }
            checkValues(prometheus, queries, values, start, end, runPrefix);
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
     * The values of the run's count panels: each rate panel's own expression with its {@code rate(...[interval])}
     * turned into the counters' last values over the run ({@code last_over_time(...[15m])}, same selectors and
     * grouping) equals summary.json's totals summed over the experiment's runs: operations by type and outcome,
     * missed and warmup operations by phase. The runs panel lists exactly the run folders, the epoch panel reaches 1
     * (0 before) and the mode panel shows only modes that ran (one shorter than a scrape interval may be missed).
     */
    private void checkValues(
            String base, List<Query> queries, Map<String, String> values, double start, double end, String runPrefix)
            throws Exception {
        Path results = tmp.resolve("results");
        Map<String, Long> ops = new TreeMap<>();
        Map<String, Long> missed = new TreeMap<>();
        Map<String, Long> warmup = new TreeMap<>();
        Set<String> runIds = new TreeSet<>();
        Set<String> modes = new TreeSet<>();
        try (var files = Files.walk(results)) {
            for (Path summary : files.filter(f -> f.endsWith("summary.json")).toList()) {
                String runId = results.relativize(summary.getParent()).toString();
                runIds.add(runId);
                modes.add(summary.getParent().getParent().getFileName().toString());
                for (Map.Entry<String, Long> e : SummaryTotals.of(summary).entrySet()) {
                    String[] k = e.getKey().split("\\|");
                    Map<String, Long> into = k[0].equals("ops")
                            ? ops
                            : k[0].equals("missed") ? missed : k[0].equals("warmup") ? warmup : null;
                    String key = k[0].equals("ops") ? k[2] + "|" + k[3] : k[1];
                    if (into != null && e.getValue() > 0) {
                        into.merge(key, e.getValue(), Long::sum);
                    }
                }
            }
        }
        assertTrue(!ops.isEmpty() && runIds.size() >= 2, "the experiment's runs: " + runIds + " " + ops);
        assertEquals(
                ops,
                lastValues(
                        base, panel(queries, "Operations/s by type and outcome", "A"), values, end, "type", "outcome"),
                "operations by type and outcome");
        assertEquals(
                missed,
                lastValues(base, panel(queries, "Missed arrivals/s", "A"), values, end, "phase"),
                "missed by phase");
        assertEquals(
                warmup,
                lastValues(base, panel(queries, "Missed arrivals/s", "B"), values, end, "phase"),
                "warmup by phase");

        Query runs = panel(queries, "Runs (results folders)", "A");
        Set<String> listed = new TreeSet<>();
        for (JsonNode series : ask(
                        base, runs.where(), rangeOrInstant(base, true, fill(runs.expr(), values), start, end))
                .get("data")
                .get("result")) {
            JsonNode m = series.get("metric");
            listed.add(m.get("run_id").asText());
            assertEquals(
                    "ycsbivs|SQLITE|experiment",
                    m.get("benchmark").asText() + "|" + m.get("database").asText() + "|"
                            + m.get("mode").asText(),
                    series.toString());
        }
        assertEquals(runIds, listed, "the runs panel lists the run folders of " + runPrefix);
        Set<String> epochs = new TreeSet<>();
        Query epoch = panel(queries, "Current phase, experiment epoch", "B");
        for (JsonNode series : ask(base, epoch.where(), rangeOrInstant(base, false, epoch.expr(), start, end))
                .get("data")
                .get("result")) {
            series.get("values").forEach(v -> epochs.add(v.get(1).asText()));
        }
        // 0 while the experiment creates and loads, then its one epoch.
        assertTrue(epochs.contains("1") && Set.of("0", "1").containsAll(epochs), "the one epoch: " + epochs);
        Set<String> modesShown = new TreeSet<>();
        Query mode = panel(queries, "Experiment mode", "A");
        for (JsonNode series : ask(base, mode.where(), rangeOrInstant(base, false, mode.expr(), start, end))
                .get("data")
                .get("result")) {
            modesShown.add(series.get("metric").get("mode").asText());
        }
        // A gauge is seen at scrapes only (every second): a mode shorter than that may be missed, never invented.
        assertTrue(
                !modesShown.isEmpty() && modes.containsAll(modesShown),
                "the mode panel shows modes the experiment ran " + modes + ": " + modesShown);
    }

    private static Query panel(List<Query> queries, String title, String refId) {
        return queries.stream()
                .filter(q -> q.where().equals("panel '" + title + "' " + refId))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no panel '" + title + "' " + refId + " in " + queries));
    }

    /** The panel's expression over the counters' last values instead of their rates, non-zero values by labels. */
    private Map<String, Long> lastValues(String base, Query q, Map<String, String> values, double end, String... labels)
            throws Exception {
        String expr = fill(q.expr(), values);
        String last = expr.replace("rate(", "last_over_time(").replace("[5s]", "[15m]");
        assertTrue(!last.contains("rate(") && last.contains("[15m]") && !last.equals(expr), q.where() + ": " + expr);
        Map<String, Long> m = new TreeMap<>();
        for (JsonNode series : ask(base, q.where(), rangeOrInstant(base, true, last, 0, end))
                .get("data")
                .get("result")) {
            List<String> key = new ArrayList<>();
            for (String l : labels) {
                key.add(series.get("metric").get(l).asText());
            }
            long v = Math.round(Double.parseDouble(series.get("value").get(1).asText()));
            if (v > 0) {
                m.put(String.join("|", key), v);
            }
        }
        return m;
    }

    /** Waits until Prometheus holds two successful scrapes of {@code instance}: a rate has a value only then. */
    private void awaitScraped(String base, String instance) throws Exception {
        awaitEvent(base, "two scrapes of " + instance, "sum_over_time(up{instance=\"" + instance + "\"}[10s]) >= 2", 0);
    }

    /**
     * Waits for an event Prometheus records: the instant query {@code promql} (at {@code time}, 0: now) has a finite
     * value. Bounded by EVENT_WAIT_MILLIS only to end a hung test; fails with the last answer.
     */
    private void awaitEvent(String base, String what, String promql, double time) throws Exception {
        long deadline = System.currentTimeMillis() + EVENT_WAIT_MILLIS;
        while (true) {
            double at = time > 0 ? time : System.currentTimeMillis() / 1000.0;
            JsonNode body = ask(base, what, base + "/api/v1/query?time=" + at + "&query=" + enc(promql));
            if (finiteValues(body.get("data").get("result")) > 0) {
                return;
            }
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("Prometheus did not record " + what + " within " + EVENT_WAIT_MILLIS + " ms: "
                        + promql + "\nlast answer: " + body);
            }
            Thread.sleep(200);
        }
    }

    /** The query, as Grafana runs it over [start, end] (range: 1 s steps), has at least one finite value. */
    private void assertReturnsData(String base, Query q, String promql, double start, double end) throws Exception {
        JsonNode body = ask(base, q.where() + ": " + promql, rangeOrInstant(base, q.instant(), promql, start, end));
        assertTrue(
                finiteValues(body.get("data").get("result")) > 0,
                q.where() + " returned no data for the run: " + promql + "\n" + body);
    }

    private static String rangeOrInstant(String base, boolean instant, String promql, double start, double end) {
        return instant
                ? base + "/api/v1/query?time=" + end + "&query=" + enc(promql)
                : base + "/api/v1/query_range?start=" + start + "&end=" + end + "&step=1&query=" + enc(promql);
    }

    private JsonNode ask(String base, String what, String url) throws Exception {
        HttpResponse<String> r =
                http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), what + "\n" + r.body());
        JsonNode body = json.readTree(r.body());
        assertEquals("success", body.get("status").asText(), r.body());
        return body;
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
