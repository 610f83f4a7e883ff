package org.ivsbench.experiment;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.bench.BenchmarkModule;
import org.ivsbench.bench.LoadProgress;
import org.ivsbench.bench.ycsbivs.YcsbIvsExperiment;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.db.Target;
import org.ivsbench.db.Targets;
import org.ivsbench.run.RunFolder;
import org.ivsbench.stats.LatencySummary;
import org.ivsbench.stats.OperationCounts;
import org.ivsbench.stats.PhaseSummary;
import org.ivsbench.testsupport.Await;
import org.ivsbench.testsupport.RunHarness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** epochs.csv's rows: every outcome in its own column, and no ordinary row for a phase cut short. */
class EpochsCsvTest {
    @TempDir
    Path tmp;

    private static PhaseSummary summary(
            long ok,
            long skipped,
            long aborted,
            long error,
            long missed,
            double seconds,
            Double throughput,
            Double goodput) {
        LatencySummary lat = new LatencySummary(1000.0, 0.0, 1000L, 1000L, 1000L, 1000L, 1000L, 1000L);
        return new PhaseSummary(
                0,
                "p",
                0,
                0,
                0,
                seconds,
                0,
                missed,
                new OperationCounts(ok, skipped, aborted, error),
                throughput,
                goodput,
                lat,
                lat,
                lat,
                0,
                0,
                Map.of());
    }

    private static Map<String, String> row(List<String> lines, int index) {
        String[] header = lines.get(0).split(",", -1);
        String[] cells = lines.get(index).split(",", -1);
        assertEquals(header.length, cells.length, lines.get(index));
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i < header.length; i++) {
            m.put(header[i], cells[i]);
        }
        return m;
    }

    @Test
    void theHeaderIsTheOneDocsResultsFormatShows() throws Exception {
        // The run types' columns come from ycsbivs's experiment; the file stays the documented one.
        String header = "    " + EpochsCsv.epochsHeader(YcsbIvsExperiment.RUN_TYPE_COLUMNS);
        List<String> doc = Files.readAllLines(Path.of("docs/results-format.md"));
        assertTrue(doc.contains(header), "docs/results-format.md shows the header line " + header);
        new EpochsCsv(tmp, 0, YcsbIvsExperiment.RUN_TYPE_COLUMNS).close();
        assertEquals(List.of(header.trim()), Files.readAllLines(tmp.resolve("epochs.csv")));
    }

    @Test
    void failedOperationsHaveTheirOwnColumnsBesideGoodput() throws Exception {
        ValueSizeStats sizes = new ValueSizeStats();
        sizes.addValue(100);
        // extend: 800 ok + 100 skipped + 60 aborted + 40 error = 1000 ops in 10 s -> 100 ops/s, goodput 80
        PhaseSummary extend = summary(800, 100, 60, 40, 0, 10, 100.0, 80.0);
        // run: 450 ok + 0 skipped + 30 aborted + 20 error = 500 ops in 5 s -> 100 ops/s, goodput 90; 7 missed
        PhaseSummary run = summary(450, 0, 30, 20, 7, 5, 100.0, 90.0);
        try (EpochsCsv csv = new EpochsCsv(tmp, 0, YcsbIvsExperiment.RUN_TYPE_COLUMNS)) {
            csv.epochRow(1, Mode.MAIN, sizes, extend, run, null, null);
            csv.epochRow(1, Mode.CLEAN, sizes, null, run, 12L, 34L);
        }
        List<String> lines = Files.readAllLines(tmp.resolve("epochs.csv"));
        assertTrue(
                lines.get(0)
                        .startsWith(
                                "epoch,mode,records,data_bytes,value_min,value_avg,value_p50,value_p99,"
                                        + "value_max,extend_ops,extend_skipped,extend_throughput,extend_lat_avg_us,extend_lat_p99_us,run_ops,"
                                        + "run_throughput,run_lat_avg_us,run_lat_p50_us,run_lat_p99_us,snapshot_ms,restore_ms,"),
                "the old columns keep their places: " + lines.get(0));
        Map<String, String> main = row(lines, 1);
        assertEquals("1000", main.get("extend_ops"));
        assertEquals("100.000", main.get("extend_throughput"));
        assertEquals("80.000", main.get("extend_goodput"));
        assertEquals("100", main.get("extend_skipped"));
        assertEquals("60", main.get("extend_aborted"));
        assertEquals("40", main.get("extend_error"));
        assertEquals("500", main.get("run_ops"));
        assertEquals("90.000", main.get("run_goodput"));
        assertEquals("0", main.get("run_skipped"));
        assertEquals("30", main.get("run_aborted"));
        assertEquals("20", main.get("run_error"));
        assertEquals("7", main.get("run_missed"));
        Map<String, String> clean = row(lines, 2);
        assertEquals("", clean.get("extend_goodput"));
        assertEquals("", clean.get("extend_error"));
        assertEquals("20", clean.get("run_error"));
        assertEquals("34", clean.get("restore_ms"));
    }

    @Test
    void theQuiescenceWaitIsInTheLastTwoColumnsAndEmptyWithoutAWait() throws Exception {
        ValueSizeStats sizes = ValueSizeStats.uniform(10, 2, 150);
        PhaseSummary run = summary(100, 0, 0, 0, 0, 2, 50.0, 50.0);
        try (EpochsCsv csv = new EpochsCsv(tmp, 0, YcsbIvsExperiment.RUN_TYPE_COLUMNS)) {
            csv.epochRow(
                    1,
                    Mode.MAIN,
                    sizes,
                    null,
                    run,
                    null,
                    null,
                    new QuiescenceWait.Result(2000, false, List.of(), null));
            csv.epochRow(
                    1,
                    Mode.CLEAN,
                    sizes,
                    null,
                    run,
                    1L,
                    2L,
                    new QuiescenceWait.Result(60000, true, List.of("Innodb_history_list_length 2500"), null));
            csv.epochRow(1, Mode.AVERAGE_BASELINE, sizes, null, run, 1L, 2L);
        }
        List<String> lines = Files.readAllLines(tmp.resolve("epochs.csv"));
        assertTrue(lines.get(0).endsWith(",run_extend_lat_p99_us,quiesce_ms,quiesce_timed_out"), lines.get(0));
        assertEquals("2000", row(lines, 1).get("quiesce_ms"));
        assertEquals("false", row(lines, 1).get("quiesce_timed_out"));
        assertEquals("60000", row(lines, 2).get("quiesce_ms"));
        assertEquals("true", row(lines, 2).get("quiesce_timed_out"));
        assertEquals("", row(lines, 3).get("quiesce_ms"));
        assertEquals("", row(lines, 3).get("quiesce_timed_out"));
    }

    @Test
    void eachRunTypeHasItsOwnColumnsAndRecordSizesStandBesideValueSizes() throws Exception {
        ValueSizeStats sizes = ValueSizeStats.uniform(10, 2, 150); // records of 300 bytes
        LatencySummary readLat = new LatencySummary(200.0, 0.0, 100L, 150L, 180L, 190L, 400L, 500L);
        LatencySummary updLat = new LatencySummary(900.0, 0.0, 700L, 800L, 850L, 870L, 1500L, 2000L);
        PhaseSummary.TypeSummary read = new PhaseSummary.TypeSummary(
                new OperationCounts(60, 0, 0, 0), 30.0, 30.0, readLat, readLat, 0, 0, Map.of());
        PhaseSummary.TypeSummary update = new PhaseSummary.TypeSummary(
                new OperationCounts(40, 0, 0, 0), 20.0, 20.0, updLat, updLat, 0, 0, Map.of());
        PhaseSummary base = summary(100, 0, 0, 0, 0, 2, 50.0, 50.0);
        PhaseSummary run = new PhaseSummary(
                0,
                "run",
                0,
                0,
                0,
                2,
                0,
                0,
                base.counts(),
                50.0,
                50.0,
                base.responseTimeUs(),
                base.serviceTimeUs(),
                base.startLagUs(),
                0,
                0,
                Map.of("ReadRecord", read, "UpdateRecord", update));
        try (EpochsCsv csv = new EpochsCsv(tmp, 0, YcsbIvsExperiment.RUN_TYPE_COLUMNS)) {
            csv.epochRow(1, Mode.AVERAGE_BASELINE, sizes, null, run, 0L, 5L);
        }
        Map<String, String> r = row(Files.readAllLines(tmp.resolve("epochs.csv")), 1);
        assertEquals("60", r.get("run_read_ops"));
        assertEquals("30.000", r.get("run_read_throughput"));
        assertEquals("200.000", r.get("run_read_lat_avg_us"));
        assertEquals("190", r.get("run_read_lat_p99_us"));
        assertEquals("40", r.get("run_update_ops"));
        assertEquals("900.000", r.get("run_update_lat_avg_us"));
        assertEquals("870", r.get("run_update_lat_p99_us"));
        assertEquals("", r.get("run_extend_ops"), "a type that did not run has empty cells");
        assertEquals("150", r.get("value_max"));
        assertEquals("300", r.get("record_min"));
        assertEquals("300.000", r.get("record_avg"));
        assertEquals("300", r.get("record_max"));
        assertEquals("0", r.get("records_at_cap"));
    }

    @Test
    void aRunPhaseCutShortByAStopIsNoRow() throws Exception {
        Path db = tmp.resolve("q.db");
        String xml = Files.readString(Path.of("config/experiments/ycsbivs_quick_sqlite.xml"))
                .replace("jdbc:sqlite:results/ycsbivs_quick.db", "jdbc:sqlite:" + db)
                .replaceAll("<epochs>\\d+</epochs>", "<epochs>2</epochs>")
                .replaceAll("<modes>[^<]*</modes>", "<modes>main</modes>")
                .replaceAll("<recordcount>\\d+</recordcount>", "<recordcount>100</recordcount>")
                .replaceAll("<count>20000</count>", "<count>100000000</count>") // the run phase never ends alone
                .replaceAll("<count>10000</count>", "<count>200</count>")
                .replaceAll("<warmup>\\d+</warmup>", "<warmup>0</warmup>");
        BenchmarkConfig config = RunHarness.config(tmp, xml);
        BenchmarkModule module = RunHarness.module();
        ExperimentSpec spec = ExperimentSpec.parse(config, module);
        Path dir = Files.createDirectories(tmp.resolve("exp"));
        ExperimentState state = ExperimentState.create(dir, Map.of("benchmark", "ycsbivs"));
        try (Target target = Targets.open(config.target())) {
            module.create(config, target);
            module.load(config, target, LoadProgress.NONE);
            EpochLoop loop = new EpochLoop(
                    module,
                    config,
                    spec,
                    target,
                    dir,
                    new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                    ExperimentListener.NONE,
                    new RunFolder(List.of(), 1),
                    Map.of(),
                    "sha256:test",
                    1,
                    state);
            Path samples = dir.resolve("epoch-001/main/run/samples.csv");
            AtomicReference<Throwable> stopperFailed = new AtomicReference<>();
            Thread stopper = new Thread(() -> {
                try {
                    // A closed window of main's run phase: it is under way.
                    Await.until(
                            "a closed window of main's run phase in " + samples,
                            Duration.ofSeconds(120),
                            () -> Files.exists(samples)
                                    ? Files.readAllLines(samples).size() - 1
                                    : 0,
                            lines -> lines >= 2);
                    loop.stop();
                } catch (Throwable e) {
                    stopperFailed.set(e);
                }
            });
            stopper.start();
            loop.run();
            stopper.interrupt(); // ends its wait if the loop ended on its own
            stopper.join();
            if (stopperFailed.get() != null) {
                throw new AssertionError("the loop was not stopped in main's run phase", stopperFailed.get());
            }
        }
        List<String> lines = Files.readAllLines(dir.resolve("epochs.csv"));
        assertEquals(1, lines.size(), "only the header: " + lines);
        try (Stream<String> s = Files.lines(dir.resolve("epoch-001/main/run/summary.json"))) {
            assertTrue(s.anyMatch(l -> l.contains("\"interrupted\" : true")), "the phase's own folder says so");
        }
        assertEquals(0, state.lastFinishedEpoch());
    }
}
