package org.ivsbench.experiment;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.bench.BenchmarkModule;
import org.ivsbench.bench.LoadProgress;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;
import org.ivsbench.db.Targets;
import org.ivsbench.testsupport.RunHarness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An experiment interrupted in epoch 1 (after its extends reached the primary) and resumed: the primary is
 * checked against the load, recorded in experiment.json, and the extends applied before the interruption are
 * recorded as drift, like a resume in any later epoch.
 */
class ExperimentResumeEpochOneTest {
    @TempDir
    Path tmp;

    @Test
    void anInterruptionInEpochOneIsCheckedAndItsDriftRecorded() throws Exception {
        BenchmarkConfig config = mainOnly(tmp, 1);
        BenchmarkModule module = RunHarness.module();
        ExperimentSpec spec = ExperimentSpec.parse(config, module);
        Path results = Files.createDirectories(tmp.resolve("results"));
        ExperimentListener failAfterExtends = new ExperimentListener() {
            @Override
            public void primaryReady(int epoch, Target primary, String table) throws TargetException {
                throw new TargetException("interrupted by the test", null, false);
            }
        };
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
        try (Target target = Targets.open(config.target())) {
            module.create(config, target);
            module.load(config, target, LoadProgress.NONE);
            // 100 records x 2 fields x 100 bytes after the load
            assertEquals(
                    1,
                    ExperimentRun.run(
                            module, config, spec, target, results, 1, print, List.of("test"), false, failAfterExtends));
            Path dir;
            try (Stream<Path> s = Files.list(results)) {
                dir = s.findFirst().orElseThrow();
            }
            JsonNode state = new ObjectMapper()
                    .readTree(dir.resolve(ExperimentState.FILE).toFile());
            assertEquals(0, state.get("lastFinishedEpoch").asInt());
            assertEquals(100, state.get("primary").get("records").asLong());
            assertEquals(100 * 2 * 100, state.get("primary").get("dataBytes").asLong());

            // 300 client extends of 100 bytes each (extendfieldlength), none skipped below the 1.6 MB cap
            long extended =
                    ValueSizeStats.of(target, spec.workload().dataTable()).totalBytes() - 20_000;
            assertEquals(300 * 100, extended);

            assertEquals(0, resume(module, config, spec, target, results, print), out.toString(StandardCharsets.UTF_8));
            state = new ObjectMapper()
                    .readTree(dir.resolve(ExperimentState.FILE).toFile());
            JsonNode drifts = state.get("resumesWithDrift");
            assertTrue(drifts != null && drifts.size() == 1, state.toString());
            assertEquals(1, drifts.get(0).get("epoch").asInt());
            assertEquals(30_000, drifts.get(0).get("primaryDataBytesDrift").asLong());
            assertEquals(1, state.get("lastFinishedEpoch").asInt());
            assertTrue(out.toString(StandardCharsets.UTF_8).contains("after the load"), out.toString());
        }
    }

    /** {@code --resume} of the experiment under {@code results}, one terminal, no listener: its exit code. */
    static int resume(
            BenchmarkModule module,
            BenchmarkConfig config,
            ExperimentSpec spec,
            Target target,
            Path results,
            PrintStream print)
            throws Exception {
        return ExperimentRun.run(
                module, config, spec, target, results, 1, print, List.of("test"), true, ExperimentListener.NONE);
    }

    /**
     * The quick SQLite preset cut down: main only, 100 records of 2 fields x 100 bytes, 300 extends and 300 reads per
     * epoch, no warmup; {@code epochs} epochs.
     */
    static BenchmarkConfig mainOnly(Path tmp, int epochs) throws Exception {
        String xml = Files.readString(Path.of("config/experiments/ycsbivs_quick_sqlite.xml"))
                .replace("jdbc:sqlite:results/ycsbivs_quick.db", "jdbc:sqlite:" + tmp.resolve("q.db"))
                .replaceAll("<epochs>\\d+</epochs>", "<epochs>" + epochs + "</epochs>")
                .replaceAll("<modes>[^<]*</modes>", "<modes>main</modes>")
                .replaceAll("<recordcount>\\d+</recordcount>", "<recordcount>100</recordcount>")
                .replaceAll("<fieldcount>\\d+</fieldcount>", "<fieldcount>2</fieldcount>")
                .replaceAll("<count>\\d+</count>", "<count>300</count>")
                .replaceAll("<warmup>\\d+</warmup>", "<warmup>0</warmup>");
        return RunHarness.config(tmp, xml);
    }
}
