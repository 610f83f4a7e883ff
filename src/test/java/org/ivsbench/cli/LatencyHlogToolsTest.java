package org.ivsbench.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.testsupport.HdrLogProcessor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * latency.hlog read by HdrHistogram's own HistogramLogProcessor, of a real (SQLite) run and of its merge: without
 * {@code -tag} it counts every operation (the untagged all-types intervals), with {@code -tag p<phase>.<TYPE>} that
 * phase and type. The expected counts are the config's: phase 0 is 2,000 ReadRecord only, phase 1 1,000
 * UpdateRecord only. The merged folder's and the BenchBase files' totals equal summary.json's (no interval counted
 * twice).
 */
class LatencyHlogToolsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long READS = 2000;
    private static final long UPDATES = 1000;

    @TempDir
    static Path tmp;

    static Path run;
    static Path merged;

    @BeforeAll
    static void runAndMerge() throws Exception {
        String xml = Files.readString(Path.of("config/sqlite/sample_ycsb_config.xml"))
                .replace(
                        "jdbc:sqlite:results/ycsb.db",
                        "jdbc:sqlite:" + tmp.resolve("h.db").toAbsolutePath())
                .replace("<terminals>1</terminals>", "<terminals>2</terminals>")
                .replaceAll(
                        "(?s)<works>.*</works>",
                        ("<works><work><count>%d</count><rate>unlimited</rate><weights>100,0,0,0,0,0</weights></work>"
                                        + "<work><count>%d</count><rate>unlimited</rate><weights>0,0,0,100,0,0"
                                        + "</weights></work></works>")
                                .formatted(READS, UPDATES));
        assertTrue(xml.contains("<count>" + UPDATES + "</count>"), "the sample config's work was replaced");
        Path config = tmp.resolve("c.xml");
        Files.writeString(config, xml);
        Path results = tmp.resolve("results");
        int code = Main.execute(
                "-b",
                "ycsb",
                "-c",
                config.toString(),
                "--create",
                "--load",
                "--execute",
                "-d",
                results.toString(),
                "--benchbase-outputs");
        assertEquals(0, code);
        try (var dirs = Files.list(results)) {
            run = dirs.filter(Files::isDirectory).findFirst().orElseThrow();
        }
        merged = tmp.resolve("merged");
        assertEquals(0, Main.execute("merge", "-o", merged.toString(), run.toString()));
    }

    private static JsonNode summary(Path dir) throws Exception {
        return JSON.readTree(dir.resolve("summary.json").toFile());
    }

    private static long operations(JsonNode summary) {
        long n = 0;
        for (JsonNode phase : summary.path("phases")) {
            n += phase.path("operations").asLong();
        }
        return n;
    }

    private static long operations(JsonNode summary, int phase, String type) {
        return summary.path("phases")
                .get(phase)
                .path("transactions")
                .path(type)
                .path("operations")
                .asLong();
    }

    private static double header(List<String> lines, String name) {
        String prefix = "#[" + name + ": ";
        String line = lines.stream()
                .filter(l -> l.startsWith(prefix))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + prefix + " line"));
        return Double.parseDouble(line.substring(prefix.length()).split(" ")[0]);
    }

    @Test
    void theSummaryHoldsTheConfiguredCounts() throws Exception {
        JsonNode s = summary(run);
        assertEquals(READS + UPDATES, operations(s));
        assertEquals(READS, operations(s, 0, "ReadRecord"));
        assertEquals(UPDATES, operations(s, 1, "UpdateRecord"));
    }

    @Test
    void startTimeAndBaseTimeAreTheStartOfTheFirstWindow() throws Exception {
        for (Path dir : List.of(run, merged)) {
            List<String> lines = Files.readAllLines(dir.resolve("latency.hlog"));
            double start = header(lines, "StartTime");
            double base = header(lines, "BaseTime");
            assertEquals(start, base, dir + ": StartTime and BaseTime");
            long startMs = Math.round(start * 1000);
            long runStartMs = summary(run).path("startMs").asLong();
            assertEquals(runStartMs / 1000 * 1000, startMs, dir + ": the 1 s window the run started in");
        }
    }

    @Test
    void theLogProcessorCountsEveryOperationWithoutATagAndOneTypeWithIt() throws Exception {
        for (Path dir : List.of(run, merged)) {
            Path log = dir.resolve("latency.hlog");
            assertEquals(READS + UPDATES, HdrLogProcessor.totalCount(log, null), dir + ": no -tag");
            assertEquals(READS, HdrLogProcessor.totalCount(log, "p0.ReadRecord"), dir + ": -tag p0.ReadRecord");
            assertEquals(UPDATES, HdrLogProcessor.totalCount(log, "p1.UpdateRecord"), dir + ": -tag p1.UpdateRecord");
        }
    }

    @Test
    void theMergedSummaryCountsEveryOperationOnce() throws Exception {
        JsonNode one = summary(run);
        JsonNode all = summary(merged);
        assertEquals(operations(one), operations(all));
        assertEquals(operations(one, 0, "ReadRecord"), operations(all, 0, "ReadRecord"));
        assertEquals(operations(one, 1, "UpdateRecord"), operations(all, 1, "UpdateRecord"));
        assertEquals(
                one.path("phases").get(0).path("responseTimeUs"),
                all.path("phases").get(0).path("responseTimeUs"),
                "response-time figures of one shard merged are its own");
    }

    @Test
    void benchBaseSamplesCountEveryOperationOnce() throws Exception {
        Path samples;
        try (var files = Files.list(run)) {
            samples = files.filter(f -> f.getFileName().toString().endsWith(".samples.csv"))
                    .findFirst()
                    .orElseThrow();
        }
        long requests = 0;
        List<String> lines = Files.readAllLines(samples);
        for (String row : lines.subList(1, lines.size())) {
            requests += Long.parseLong(row.split(",")[1]);
        }
        assertEquals(operations(summary(run)), requests, samples.getFileName() + ": Requests");
    }
}
