package org.ivsbench.benchbase;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.cli.Main;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * --benchbase-outputs and -jh on a real (SQLite) ycsb run. The file names, CSV headers and JSON keys are written
 * out here as BenchBase's ResultWriter and DistributionStatistics spell them, so a change on either side fails.
 */
class BenchBaseOutputsTest {
    private static final String SAMPLES = "Time (seconds),Requests,Throughput (requests/second),"
            + "Minimum Latency (microseconds),25th Percentile Latency (microseconds),Median Latency (microseconds),"
            + "Average Latency (microseconds),75th Percentile Latency (microseconds),"
            + "90th Percentile Latency (microseconds),95th Percentile Latency (microseconds),"
            + "99th Percentile Latency (microseconds),Maximum Latency (microseconds)";
    private static final String RESULTS = "Time (seconds),Throughput (requests/second),Average Latency (millisecond),"
            + "Minimum Latency (millisecond),25th Percentile Latency (millisecond),Median Latency (millisecond),"
            + "75th Percentile Latency (millisecond),90th Percentile Latency (millisecond),"
            + "95th Percentile Latency (millisecond),99th Percentile Latency (millisecond),"
            + "Maximum Latency (millisecond),tp (req/s) scaled";
    private static final List<String> LATENCY_KEYS = List.of(
            "Minimum Latency (microseconds)",
            "25th Percentile Latency (microseconds)",
            "Median Latency (microseconds)",
            "Average Latency (microseconds)",
            "75th Percentile Latency (microseconds)",
            "90th Percentile Latency (microseconds)",
            "95th Percentile Latency (microseconds)",
            "99th Percentile Latency (microseconds)",
            "Maximum Latency (microseconds)");

    @TempDir
    static Path tmp;

    static Path dir;
    static JsonNode ours;

    @BeforeAll
    static void run() throws Exception {
        String xml = Files.readString(Path.of("config/sqlite/sample_ycsb_config.xml"))
                .replace(
                        "jdbc:sqlite:results/ycsb.db",
                        "jdbc:sqlite:" + tmp.resolve("o.db").toAbsolutePath())
                .replace("<time>60</time>", "<count>3000</count>")
                .replace("<rate>10000</rate>", "<rate>unlimited</rate>")
                .replace("<terminals>1</terminals>", "<terminals>2</terminals>");
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
                "--benchbase-outputs",
                "--benchbase-raw",
                "-jh",
                tmp.resolve("h.json").toString());
        assertEquals(0, code);
        try (var dirs = Files.list(results)) {
            dir = dirs.filter(Files::isDirectory).findFirst().orElseThrow();
        }
        ours = new ObjectMapper().readTree(dir.resolve("summary.json").toFile());
    }

    private static Path file(String kind) {
        return dir.resolve(dir.getFileName() + "." + kind);
    }

    @Test
    void summaryHasBenchBasesKeysAndOurCounts() throws Exception {
        JsonNode s = new ObjectMapper().readTree(file("summary.json").toFile());
        List<String> keys = new ArrayList<>();
        s.fieldNames().forEachRemaining(keys::add);
        assertEquals(
                List.of(
                        "Benchmark Type",
                        "Current Timestamp (milliseconds)",
                        "DBMS Type",
                        "DBMS Version",
                        "Goodput (requests/second)",
                        "Latency Distribution",
                        "Measured Requests",
                        "Throughput (requests/second)",
                        "isolation",
                        "scalefactor",
                        "terminals"),
                keys);
        assertEquals("ycsb", s.get("Benchmark Type").asText());
        assertEquals("SQLITE", s.get("DBMS Type").asText());
        assertEquals(3000, s.get("Measured Requests").asLong());
        assertEquals("2", s.get("terminals").asText());
        JsonNode phase = ours.get("phases").get(0);
        assertEquals(
                phase.get("throughput").asDouble(),
                s.get("Throughput (requests/second)").asDouble(),
                1e-6);
        assertEquals(
                phase.get("goodput").asDouble(),
                s.get("Goodput (requests/second)").asDouble(),
                1e-6);
        List<String> latency = new ArrayList<>();
        s.get("Latency Distribution").fieldNames().forEachRemaining(latency::add);
        assertEquals(LATENCY_KEYS, latency);
    }

    @Test
    void latencyDistributionIsOurResponseTimeInMicroseconds() throws Exception {
        // One phase, unlimited rate: BenchBase's latency (from the actual start) is our response time there, and
        // both are in microseconds, from the same histogram, so the shared figures are equal, not just close.
        assertEquals(1, ours.get("phases").size());
        JsonNode response = ours.get("phases").get(0).get("responseTimeUs");
        JsonNode d = new ObjectMapper().readTree(file("summary.json").toFile()).get("Latency Distribution");
        assertEquals(
                response.get("p50").asLong(),
                d.get("Median Latency (microseconds)").asLong(),
                d.toString());
        assertEquals(
                response.get("p90").asLong(),
                d.get("90th Percentile Latency (microseconds)").asLong());
        assertEquals(
                response.get("p95").asLong(),
                d.get("95th Percentile Latency (microseconds)").asLong());
        assertEquals(
                response.get("p99").asLong(),
                d.get("99th Percentile Latency (microseconds)").asLong());
        assertEquals(
                response.get("max").asLong(),
                d.get("Maximum Latency (microseconds)").asLong());
        // BenchBase truncates the average to whole microseconds.
        assertEquals(
                (long) response.get("avg").asDouble(),
                d.get("Average Latency (microseconds)").asLong());
        // summary.json has no minimum, 25th or 75th percentile. raw.csv times each operation inside the engine's
        // own timing (around the terminal's call: a few microseconds less each), so its smallest latency is at
        // most the minimum, in the same unit; the quartiles lie between their neighbours.
        long rawMin = Long.MAX_VALUE;
        for (String row : Files.readAllLines(file("raw.csv")).subList(1, 3001)) {
            rawMin = Math.min(rawMin, Long.parseLong(row.split(",")[3]));
        }
        long min = d.get("Minimum Latency (microseconds)").asLong();
        assertTrue(0 < rawMin && rawMin <= min, "minimum " + min + " against raw.csv's " + rawMin);
        long p25 = d.get("25th Percentile Latency (microseconds)").asLong();
        long p75 = d.get("75th Percentile Latency (microseconds)").asLong();
        assertTrue(min <= p25 && p25 <= response.get("p50").asLong(), d.toString());
        assertTrue(
                response.get("p50").asLong() <= p75
                        && p75 <= response.get("p90").asLong(),
                d.toString());
    }

    @Test
    void resultsCsvIsSamplesCsvInMilliseconds() throws Exception {
        // The same windows, all types merged: samples.csv in microseconds, results.csv in milliseconds (3 decimals).
        List<String> samples = Files.readAllLines(file("samples.csv"));
        List<String> results = Files.readAllLines(file("results.csv"));
        assertEquals(samples.size(), results.size());
        // samples.csv columns (after time, requests, throughput) -> results.csv columns, by name.
        int[][] pairs = {{3, 3}, {4, 4}, {5, 5}, {7, 6}, {8, 7}, {9, 8}, {10, 9}, {11, 10}};
        for (int row = 1; row < samples.size(); row++) {
            String[] us = samples.get(row).split(",");
            String[] ms = results.get(row).split(",");
            assertEquals(us[0], ms[0], "window start");
            for (int[] p : pairs) {
                assertEquals(
                        String.format(java.util.Locale.ROOT, "%.3f", Long.parseLong(us[p[0]]) / 1e3),
                        ms[p[1]],
                        SAMPLES.split(",")[p[0]] + " / " + RESULTS.split(",")[p[1]] + " in row " + row);
            }
        }
    }

    @Test
    void csvFilesHaveBenchBasesHeadersAndCountEveryRequest() throws Exception {
        List<String> samples = Files.readAllLines(file("samples.csv"));
        assertEquals(SAMPLES, samples.get(0));
        long requests = 0;
        for (String row : samples.subList(1, samples.size())) {
            String[] cells = row.split(",");
            assertEquals(12, cells.length, row);
            requests += Long.parseLong(cells[1]);
        }
        assertEquals(3000, requests);
        assertEquals(RESULTS, Files.readAllLines(file("results.csv")).get(0));
        for (String type : List.of(
                "ReadRecord", "InsertRecord", "ScanRecord", "UpdateRecord", "DeleteRecord", "ReadModifyWriteRecord")) {
            assertEquals(
                    RESULTS,
                    Files.readAllLines(file("results." + type + ".csv")).get(0),
                    type);
        }
        for (String kind : List.of("params.json", "metrics.json", "config.xml")) {
            assertTrue(Files.isRegularFile(file(kind)), kind);
        }
        assertTrue(Files.readString(file("config.xml")).contains("<scalefactor>1</scalefactor>"));
    }

    @Test
    void rawCsvHasOneRowPerMeasuredOperation() throws Exception {
        List<String> raw = Files.readAllLines(file("raw.csv"));
        assertEquals(
                "Transaction Type Index,Transaction Name,Start Time (microseconds),Latency (microseconds),"
                        + "Worker Id (start number),Phase Id (index in config file)",
                raw.get(0));
        assertEquals(3001, raw.size(), "header + one row per operation");
        long reads = 0;
        for (String row : raw.subList(1, raw.size())) {
            String[] cells = row.split(",");
            assertEquals(6, cells.length, row);
            if (cells[1].equals("ReadRecord")) {
                assertEquals("1", cells[0], "types are numbered from 1 in config order");
                reads++;
            }
            assertEquals("1", cells[5], "phases are numbered from 1");
            assertTrue(Long.parseLong(cells[3]) >= 0, row);
        }
        assertEquals(
                ours.get("phases")
                        .get(0)
                        .get("transactions")
                        .get("ReadRecord")
                        .get("operations")
                        .asLong(),
                reads);
    }

    @Test
    void jsonHistogramsSplitTheOutcomes() throws Exception {
        JsonNode h = new ObjectMapper().readTree(tmp.resolve("h.json").toFile());
        long total = 0;
        for (String cls : List.of("completed", "aborted", "rejected", "unexpected")) {
            for (JsonNode count : h.get(cls)) {
                total += count.asLong();
            }
        }
        assertEquals(3000, total);
        JsonNode read =
                ours.get("phases").get(0).get("transactions").get("ReadRecord").get("counts");
        assertEquals(
                read.get("ok").asLong(), h.get("completed").get("ReadRecord").asLong());
    }
}
