package org.ivsbench.merge;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The merged figures of synthetic shard folders, value by value: missed arrivals summed (summary.json, samples.csv,
 * missed lateness from the added histograms), monitor.csv kept once per host it describes, every shard's barrier
 * block kept and described.
 */
class ResultsMergeFiguresTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long T0 = 1_700_000_000_000L;
    private static final String MONITOR_HEADER = "time_ms,interval_ms,phase,source,cpu.user_pct";

    @TempDir
    Path dir;

    /** A finished shard of a two-shard (or n-shard) run: one open-loop phase, one transaction type. */
    private Path shard(int index, int count, long missed, long ok, String host, String barrier) throws Exception {
        Path d = Files.createDirectories(dir.resolve("shard" + index));
        Files.writeString(
                d.resolve("summary.json"),
                "{\"benchmark\":\"ycsbivs\",\"complete\":true,\"configDigest\":\"sha256:1\",\"randomSeed\":1,"
                        + "\"windowSeconds\":1,\"terminals\":2,\"startMs\":" + T0 + ",\"endMs\":" + (T0 + 2000)
                        + ",\"shard\":{\"index\":" + index + ",\"count\":" + count + ",\"barrier\":" + barrier
                        + "},\"phases\":[{\"index\":0,\"name\":\"p\",\"startMs\":" + T0 + ",\"measuredStartMs\":" + T0
                        + ",\"endMs\":" + (T0 + 2000) + ",\"measuredSeconds\":2.0,"
                        + "\"rate\":{\"kind\":\"open\",\"target\":50.0,\"arrival\":\"uniform\"},\"maxLatenessMs\":null,"
                        + "\"activeTerminals\":2,\"warmupOperations\":0,\"missed\":" + missed + ",\"counts\":{\"ok\":"
                        + ok + ",\"skipped\":0,\"aborted\":0,\"error\":0},\"transactions\":{\"ReadRecord\":{"
                        + "\"counts\":{\"ok\":" + ok + ",\"skipped\":0,\"aborted\":0,\"error\":0}}}}]}");
        Files.writeString(d.resolve("environment.json"), "{\"host\":{\"name\":\"" + host + "\"}}");
        hlog(d.resolve("latency.hlog"), Map.of("p0.ReadRecord", new long[] {100 + index, 200}));
        return d;
    }

    private static void hlog(Path file, Map<String, long[]> valuesByTag) throws Exception {
        try (PrintStream stream = new PrintStream(file.toFile(), StandardCharsets.US_ASCII)) {
            HistogramLogWriter log = new HistogramLogWriter(stream);
            log.outputLogFormatVersion();
            log.outputStartTime(T0);
            log.setBaseTime(T0);
            log.outputLegend();
            valuesByTag.forEach((tag, values) -> {
                Histogram h = histogram(values);
                h.setTag(tag);
                h.setStartTimeStamp(T0);
                h.setEndTimeStamp(T0 + 1000);
                log.outputIntervalHistogram(h);
            });
        }
    }

    private static Histogram histogram(long... values) {
        Histogram h = new Histogram(3);
        for (long v : values) {
            h.recordValue(v);
        }
        return h;
    }

    /** A samples.csv row of phase 0: time, type, ok, missed, missed lateness p50 and max (empty: none missed). */
    private static String sample(long time, String type, long ok, long missed, String lateP50, String lateMax) {
        return time + ",1000,0," + type + "," + ok + ",0,0,0," + missed + "," + ok + ".000," + ok + ".000,,,,,,,,1000,"
                + lateP50 + "," + lateMax;
    }

    private static void write(Path file, String... lines) throws Exception {
        Files.writeString(file, String.join("\n", lines) + "\n");
    }

    private static Map<String, String[]> rows(Path samples) throws Exception {
        Map<String, String[]> byKey = new java.util.LinkedHashMap<>();
        List<String> lines = Files.readAllLines(samples);
        for (String line : lines.subList(1, lines.size())) {
            String[] c = line.split(",", -1);
            byKey.put(c[0] + "," + c[3], c);
        }
        return byKey;
    }

    @Test
    void missedArrivalsAreSummedInTheSummaryTheSamplesAndTheLatenessHistograms() throws Exception {
        String barrier = "{\"startLateMs\":0}";
        Path s0 = shard(0, 2, 3, 40, "h", barrier);
        Path s1 = shard(1, 2, 4, 50, "h", barrier);
        write(
                s0.resolve("samples.csv"),
                SamplesMerger.HEADER,
                sample(T0, "ReadRecord", 20, 3, "1500", "4000"),
                sample(T0, "ALL", 20, 3, "1500", "4000"),
                sample(T0 + 1000, "ALL", 20, 0, "", ""));
        write(
                s1.resolve("samples.csv"),
                SamplesMerger.HEADER,
                sample(T0, "ALL", 25, 2, "700", "9000"),
                sample(T0 + 1000, "ALL", 25, 2, "300", "600"));
        hlog(s0.resolve("histograms.hlog"), Map.of("p0.missedLateness", new long[] {1000, 1500, 4000}));
        hlog(s1.resolve("histograms.hlog"), Map.of("p0.missedLateness", new long[] {300, 600, 700, 9000}));

        Path out = dir.resolve("merged");
        ResultsMerge.Result r = ResultsMerge.merge(List.of(s0, s1), out);
        assertTrue(r.complete(), r.leftOut().toString());

        JsonNode phase = JSON.readTree(out.resolve("summary.json").toFile())
                .path("phases")
                .get(0);
        assertEquals(7, phase.path("missed").asLong(), "3 + 4 missed arrivals");
        assertEquals(90, phase.path("operations").asLong());
        Histogram late = histogram(1000, 1500, 4000, 300, 600, 700, 9000);
        JsonNode lateness = phase.path("missedLatenessUs");
        assertEquals(late.getMaxValue(), lateness.path("max").asLong());
        assertEquals(late.getValueAtPercentile(50), lateness.path("p50").asLong());
        assertEquals(late.getValueAtPercentile(99), lateness.path("p99").asLong());

        Map<String, String[]> rows = rows(out.resolve("samples.csv"));
        String[] first = rows.get(T0 + ",ALL");
        assertEquals("5", first[8], "3 + 2 missed in the first window");
        assertEquals("", first[19], "two shards missed: no single p50 to keep");
        assertEquals("9000", first[20], "the largest lateness");
        String[] second = rows.get((T0 + 1000) + ",ALL");
        assertEquals("2", second[8], "0 + 2 missed in the second window");
        assertEquals("300", second[19], "one shard missed: its p50 is the window's");
        assertEquals("600", second[20]);
        assertEquals("3", rows.get(T0 + ",ReadRecord")[8], "a row only one shard has is kept as it is");
    }

    @Test
    void monitorRowsAreKeptOncePerHost() throws Exception {
        String barrier = "{\"startLateMs\":0}";
        Path a0 = shard(0, 3, 0, 10, "hostA", barrier);
        Path a1 = shard(1, 3, 0, 10, "hostA", barrier);
        Path b2 = shard(2, 3, 0, 10, "hostB", barrier);
        for (Path s : List.of(a0, a1, b2)) {
            write(s.resolve("samples.csv"), SamplesMerger.HEADER);
        }
        write(a0.resolve("monitor.csv"), MONITOR_HEADER, T0 + ",1000,0,local,11.0");
        write(a1.resolve("monitor.csv"), MONITOR_HEADER, T0 + ",1000,0,local,12.0");
        write(b2.resolve("monitor.csv"), MONITOR_HEADER, T0 + ",1000,0,client,13.0");

        Path out = dir.resolve("merged");
        ResultsMerge.merge(List.of(a0, a1, b2), out);
        assertEquals(List.of("monitor-hostB.csv", "monitor.csv"), monitorFiles(out));
        assertEquals(Files.readString(a0.resolve("monitor.csv")), Files.readString(out.resolve("monitor.csv")));
        assertEquals(Files.readString(b2.resolve("monitor.csv")), Files.readString(out.resolve("monitor-hostB.csv")));

        // Rows of the database host's agent are the same for every shard, whichever host it ran on: kept once.
        write(a0.resolve("monitor.csv"), MONITOR_HEADER, T0 + ",1000,0,agent,21.0");
        write(a1.resolve("monitor.csv"), MONITOR_HEADER, T0 + ",1000,0,agent,21.0");
        write(b2.resolve("monitor.csv"), MONITOR_HEADER, T0 + ",1000,0,agent,21.0");
        Path agent = dir.resolve("merged-agent");
        ResultsMerge.merge(List.of(a0, a1, b2), agent);
        assertEquals(List.of("monitor.csv"), monitorFiles(agent));
        assertEquals(Files.readString(a0.resolve("monitor.csv")), Files.readString(agent.resolve("monitor.csv")));
    }

    @Test
    void everyShardsBarrierBlockIsKeptAndItsClockOffsetDescribed() throws Exception {
        Path s0 = shard(
                0,
                2,
                0,
                10,
                "hostA",
                "{\"serverClock\":\"SELECT 1\",\"serverClockOffsetMs\":0.125,\"offsetBoundMs\":0.25,"
                        + "\"startCorrectionMs\":0,\"startLateMs\":1}");
        Path s1 = shard(
                1,
                2,
                0,
                10,
                "hostB",
                "{\"serverClock\":\"SELECT 1\",\"serverClockOffsetMs\":-3000.5,\"offsetBoundMs\":0.75,"
                        + "\"startCorrectionMs\":-3001,\"startLateMs\":0}");
        for (Path s : List.of(s0, s1)) {
            write(s.resolve("samples.csv"), SamplesMerger.HEADER);
        }
        Path out = dir.resolve("merged");
        ResultsMerge.Result r = ResultsMerge.merge(List.of(s1, s0), out);
        assertEquals(
                List.of(
                        "shard 0: clock offset +0.125 ms (within ± 0.250 ms) against the database server's, start"
                                + " corrected by 0 ms, started 1 ms late",
                        "shard 1: clock offset -3000.500 ms (within ± 0.750 ms) against the database server's,"
                                + " start corrected by -3001 ms, started 0 ms late"),
                r.barriers());
        JsonNode shards = JSON.readTree(out.resolve("summary.json").toFile())
                .path("shards")
                .path("shards");
        assertEquals(2, shards.size());
        for (JsonNode s : shards) {
            Path from = s.path("index").asInt() == 0 ? s0 : s1;
            assertEquals(
                    JSON.readTree(from.resolve("summary.json").toFile())
                            .path("shard")
                            .path("barrier"),
                    s.path("barrier"));
        }
    }

    private static List<String> monitorFiles(Path out) throws Exception {
        try (Stream<Path> s = Files.list(out)) {
            return s.map(p -> p.getFileName().toString())
                    .filter(n -> n.startsWith("monitor"))
                    .sorted()
                    .toList();
        }
    }
}
