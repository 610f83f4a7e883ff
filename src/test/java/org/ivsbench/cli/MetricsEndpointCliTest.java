package org.ivsbench.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.testsupport.SummaryTotals;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * --metrics-listen on SQLite: the endpoint is scraped with plain HTTP until it says the run has finished, and that
 * scrape's counts, missed arrivals and histogram counts equal summary.json's exactly; bad addresses are one usage
 * line with nothing written.
 */
class MetricsEndpointCliTest {
    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)\\})? (\\S+)$");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    @TempDir
    Path tmp;

    private Path config(String extra) throws IOException {
        return MetricsRunConfig.write(tmp, extra);
    }

    /** The samples of an exposition, keyed {@code name{label=value,...}} with labels sorted. */
    static Map<String, Double> samples(String text) {
        Map<String, Double> m = new HashMap<>();
        for (String line : text.split("\n")) {
            if (line.startsWith("#") || line.isBlank()) {
                continue;
            }
            Matcher s = SAMPLE.matcher(line);
            assertTrue(s.matches(), line);
            Map<String, String> labels = new TreeMap<>();
            if (s.group(2) != null) {
                Matcher l = LABEL.matcher(s.group(2));
                while (l.find()) {
                    labels.put(l.group(1), l.group(2));
                }
            }
            m.put(s.group(1) + labels, Double.parseDouble(s.group(3)));
        }
        return m;
    }

    private static Map<String, String> labels(String... kv) {
        Map<String, String> m = new TreeMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    /** The line the CLI prints once its endpoint listens; the port is the one the system gave for port 0. */
    private static final Pattern LISTENING = Pattern.compile("Metrics: http://127\\.0\\.0\\.1:(\\d+)/metrics");

    /**
     * Runs the CLI with {@code args} plus {@code --metrics-listen 127.0.0.1:0} in a thread, reads the port it bound
     * from the line it prints, and scrapes it every 200 ms until a scrape says the work has finished; returns that
     * scrape, once the run has exited 0 saying so. Port 0 rather than a port picked beforehand: a port found free
     * and closed again can be taken, before the run binds it, as the local port of any connection on the box.
     */
    private static String runAndScrape(String... args) throws Exception {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--metrics-listen", "127.0.0.1:0", "--metrics-linger", "120"));
        AtomicReference<CliHarness.Result> result = new AtomicReference<>();
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        Thread cli = new Thread(() -> result.set(CliHarness.run(printed, all.toArray(String[]::new))));
        cli.start();
        HttpClient http = HttpClient.newHttpClient();
        HttpRequest get = null;
        String last = null;
        int scrapes = 0;
        while (cli.isAlive()) {
            if (get == null) {
                Matcher m = LISTENING.matcher(printed.toString(StandardCharsets.UTF_8));
                if (m.find()) {
                    get = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + m.group(1) + "/metrics"))
                            .build();
                }
            }
            if (get != null) {
                try {
                    HttpResponse<String> r = http.send(get, HttpResponse.BodyHandlers.ofString());
                    assertEquals(200, r.statusCode());
                    scrapes++;
                    if (r.body().contains("\nivsbench_finished 1")) {
                        last = r.body();
                        break;
                    }
                } catch (IOException gone) {
                    // Already closed.
                }
            }
            Thread.sleep(200);
        }
        cli.join();
        CliHarness.Result r = result.get();
        assertEquals(0, r.code(), r.out() + r.err());
        assertNotNull(last, "a scrape saw the end; " + scrapes + " scrapes; " + r.out());
        assertTrue(r.out().contains("Metrics: the final values were scraped"), r.out());
        return last;
    }

    /** Every total of {@code summaryJson} equals the scrape's series of {@code runId}; returns the operations. */
    private static long assertScrapeEqualsSummary(Map<String, Double> got, String runId, Path summaryJson)
            throws IOException {
        Map<String, Long> expected = SummaryTotals.of(summaryJson);
        long operations = 0;
        for (Map.Entry<String, Long> e : expected.entrySet()) {
            String[] k = e.getKey().split("\\|");
            String key =
                    switch (k[0]) {
                        case "ops" ->
                            "ivsbench_operations_total"
                                    + labels("run_id", runId, "phase", k[1], "type", k[2], "outcome", k[3]);
                        case "missed" -> "ivsbench_missed_arrivals_total" + labels("run_id", runId, "phase", k[1]);
                        case "warmup" -> "ivsbench_warmup_operations_total" + labels("run_id", runId, "phase", k[1]);
                        case "count" ->
                            "ivsbench_response_time_seconds_count"
                                    + labels("run_id", runId, "phase", k[1], "type", k[2]);
                        default -> throw new AssertionError(e.getKey());
                    };
            assertEquals((double) e.getValue(), got.get(key), key);
            if (k[0].equals("ops")) {
                operations += e.getValue();
            }
        }
        return operations;
    }

    @Test
    void theLastScrapeEqualsSummaryJson() throws Exception {
        try (ServerSocket busy = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            // The option wins over the config's element, which names a port in use.
            Path c = config("<metrics><listen>127.0.0.1:" + busy.getLocalPort() + "</listen></metrics>\n");
            Path results = tmp.resolve("results");
            String last = runAndScrape(
                    "-b", "ycsb", "-c", c.toString(), "--create", "--load", "--execute", "-d", results.toString());
            Path run;
            try (var dirs = Files.list(results)) {
                run = dirs.findFirst().orElseThrow();
            }
            String runId = run.getFileName().toString();
            Map<String, Double> got = samples(last);
            long operations = assertScrapeEqualsSummary(got, runId, run.resolve("summary.json"));
            assertTrue(operations > 300, "the run measured operations: " + operations);
            assertTrue(SummaryTotals.of(run.resolve("summary.json")).get("warmup|warm") > 0, "the warmup was counted");
            assertEquals(
                    1.0,
                    got.get("ivsbench_run_info"
                            + labels("run_id", runId, "benchmark", "ycsb", "database", "SQLITE", "mode", "phases")),
                    last);
            assertEquals(1.0, got.get("ivsbench_current_phase" + labels("run_id", runId)), last);
        }
    }

    @Test
    void everyPointOfASweepIsItsOwnRunAndEqualsItsSummary() throws Exception {
        Path c = tmp.resolve("sweep.xml");
        Files.writeString(c, SweepCliTest.quickPreset("SQLITE", "jdbc:sqlite:" + tmp.resolve("s.db"), "1,2", "100", 1));
        Path results = tmp.resolve("results");
        String last = runAndScrape(
                "-b",
                "ycsbivs",
                "-c",
                c.toString(),
                "--shrink",
                "--create",
                "--load",
                "--execute",
                "-d",
                results.toString());
        Path sweep = SweepCliTest.sweepFolder(results);
        Map<String, Double> got = samples(last);
        List<Path> points;
        try (var dirs = Files.list(sweep)) {
            points = dirs.filter(d -> Files.exists(d.resolve("summary.json")))
                    .sorted()
                    .toList();
        }
        assertEquals(2, points.size(), points.toString());
        for (Path point : points) {
            String runId = sweep.getFileName() + "/" + point.getFileName();
            assertTrue(assertScrapeEqualsSummary(got, runId, point.resolve("summary.json")) > 0, runId);
            assertEquals(
                    1.0,
                    got.get("ivsbench_run_info"
                            + labels("run_id", runId, "benchmark", "ycsbivs", "database", "SQLITE", "mode", "sweep")),
                    last);
        }
    }

    private void refused(String expected, String... args) {
        CliHarness.Result r = CliHarness.run(args);
        assertEquals(Main.USAGE, r.code(), r.out() + r.err());
        assertTrue(r.err().contains(expected), r.err());
        assertEquals(1, r.err().strip().lines().count(), "one line: " + r.err());
        assertTrue(Files.notExists(tmp.resolve("o.db")), "nothing touched the database");
        assertTrue(Files.notExists(tmp.resolve("results")), "no results folder");
    }

    @Test
    void aBadAddressOrAPortInUseIsOneUsageLine() throws Exception {
        String c = config("").toString();
        String d = tmp.resolve("results").toString();
        refused(
                "--metrics-listen: 'localhost' is not HOST:PORT",
                "-b",
                "ycsb",
                "-c",
                c,
                "--execute",
                "-d",
                d,
                "--metrics-listen",
                "localhost");
        refused(
                "--metrics-listen: '127.0.0.1:70000' has port 70000, outside 0..65535",
                "-b",
                "ycsb",
                "-c",
                c,
                "--execute",
                "-d",
                d,
                "--metrics-listen",
                "127.0.0.1:70000");
        refused(
                "--metrics-listen: '127.0.0.1:9464' needs --execute",
                "-b",
                "ycsb",
                "-c",
                c,
                "--create",
                "--metrics-listen",
                "127.0.0.1:9464");
        refused(
                "--metrics-linger: '-1' must be 0 or more seconds",
                "-b",
                "ycsb",
                "-c",
                c,
                "--execute",
                "-d",
                d,
                "--metrics-listen",
                "127.0.0.1:0",
                "--metrics-linger",
                "-1");
        try (ServerSocket busy = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            String taken = "127.0.0.1:" + busy.getLocalPort();
            refused(
                    "--metrics-listen: '" + taken + "': cannot listen there",
                    "-b",
                    "ycsb",
                    "-c",
                    c,
                    "--execute",
                    "-d",
                    d,
                    "--metrics-listen",
                    taken);
            String inConfig = config("<metrics><listen>" + taken + "</listen></metrics>\n")
                    .toString();
            refused(
                    "metrics/listen: '" + taken + "': cannot listen there",
                    "-b",
                    "ycsb",
                    "-c",
                    inConfig,
                    "--execute",
                    "-d",
                    d);
        }
        refused(
                "metrics/listen",
                "-b",
                "ycsb",
                "-c",
                config("<metrics><listen>nohost</listen></metrics>\n").toString(),
                "--execute",
                "-d",
                d);
    }
}
