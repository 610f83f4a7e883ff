package org.ivsbench.experiment;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
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
import org.ivsbench.db.Targets;
import org.ivsbench.testsupport.RunHarness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A stop asked for in the middle of an epoch (the experiment folder's stop-after-epoch file, as scripts/repro.sh's
 * budget writes it) ends the experiment when that epoch is finished, before the next one's extends touch the
 * primary: the resume then finds the primary exactly as the last finished epoch left it - no drift - and runs on.
 */
class ExperimentStopFileTest {
    @TempDir
    Path tmp;

    @Test
    void aStopAskedMidEpochEndsAtTheEpochsEndAndTheResumeFindsNoDrift() throws Exception {
        BenchmarkConfig config = ExperimentResumeEpochOneTest.mainOnly(tmp, 3);
        BenchmarkModule module = RunHarness.module();
        ExperimentSpec spec = ExperimentSpec.parse(config, module);
        Path results = Files.createDirectories(tmp.resolve("results"));
        // Asked while epoch 2 runs: its extends are done, its run phase not yet.
        ExperimentListener askInEpochTwo = new ExperimentListener() {
            @Override
            public void primaryReady(int epoch, Target primary, String table) {
                if (epoch == 2) {
                    try {
                        Files.writeString(dir(results).resolve(EpochLoop.STOP_FILE), "");
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }
            }
        };
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
        ObjectMapper json = new ObjectMapper();
        try (Target target = Targets.open(config.target())) {
            module.create(config, target);
            module.load(config, target, LoadProgress.NONE);
            assertEquals(
                    0,
                    ExperimentRun.run(
                            module, config, spec, target, results, 1, print, List.of("test"), false, askInEpochTwo),
                    out.toString(StandardCharsets.UTF_8));
            Path dir = dir(results);
            JsonNode state = json.readTree(dir.resolve(ExperimentState.FILE).toFile());
            assertEquals(2, state.get("lastFinishedEpoch").asInt());
            assertFalse(Files.exists(dir.resolve(EpochLoop.STOP_FILE)), "the request is consumed");
            assertTrue(out.toString(StandardCharsets.UTF_8).contains("Stopped after epoch 2 of 3"), out.toString());
            // 100 records x 2 fields x 100 bytes loaded, 300 extends of 100 bytes per epoch: epoch 3's none yet
            assertEquals(
                    20_000 + 2 * 300 * 100,
                    ValueSizeStats.of(target, spec.workload().dataTable()).totalBytes());
            assertEquals(3, Files.readAllLines(dir.resolve("epochs.csv")).size(), "header and epochs 1-2");

            assertEquals(
                    0,
                    ExperimentResumeEpochOneTest.resume(module, config, spec, target, results, print),
                    out.toString(StandardCharsets.UTF_8));
            state = json.readTree(dir.resolve(ExperimentState.FILE).toFile());
            assertEquals(3, state.get("lastFinishedEpoch").asInt());
            JsonNode drifts = state.get("resumesWithDrift");
            assertTrue(drifts == null || drifts.isEmpty(), state.toString());
            assertEquals(
                    20_000 + 3 * 300 * 100,
                    ValueSizeStats.of(target, spec.workload().dataTable()).totalBytes());
        }
    }

    private static Path dir(Path results) {
        try (Stream<Path> s = Files.list(results)) {
            return s.findFirst().orElseThrow();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
