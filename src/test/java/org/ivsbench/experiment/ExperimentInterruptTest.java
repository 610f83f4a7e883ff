package org.ivsbench.experiment;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.faults.CliProcess;
import org.ivsbench.testsupport.Await;
import org.ivsbench.testsupport.CliArgs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * SIGTERM to the real jar in the middle of an experiment, then --resume: the interrupted run exits 143 with
 * experiment.json naming the last finished epoch, and the resumed run completes the experiment with every
 * epoch x mode row exactly once.
 */
class ExperimentInterruptTest {
    @TempDir
    Path tmp;

    @Test
    void sigtermMidExperimentThenResumeCompletesEveryEpochOnce() throws Exception {
        String xml = Files.readString(Path.of("config/experiments/ycsbivs_quick_sqlite.xml"))
                .replace("jdbc:sqlite:results/ycsbivs_quick.db", "jdbc:sqlite:" + tmp.resolve("q.db"))
                .replaceAll("<epochs>\\d+</epochs>", "<epochs>8</epochs>")
                .replaceAll("<recordcount>\\d+</recordcount>", "<recordcount>300</recordcount>")
                .replaceAll("<count>\\d+</count>", "<count>4000</count>")
                .replaceAll("<warmup>\\d+</warmup>", "<warmup>0</warmup>");
        Path cfg = tmp.resolve("exp.xml");
        Files.writeString(cfg, xml);
        Path results = tmp.resolve("results");

        CliProcess first = CliProcess.start(tmp, CliArgs.createLoadExecute(cfg, results));
        Path dir = awaitRows(results, 2 * 4 + 1, first);
        first.process().destroy(); // SIGTERM
        assertEquals(143, first.waitFor(30), first.stderr());

        JsonNode state =
                new ObjectMapper().readTree(dir.resolve("experiment.json").toFile());
        int finished = state.get("lastFinishedEpoch").asInt();
        assertTrue(finished >= 2 && finished < 8, "stopped mid-experiment, after epoch " + finished);

        CliProcess second = CliProcess.start(
                tmp, "-b", "ycsbivs", "-c", cfg.toString(), "--execute", "--resume", "-d", results.toString());
        assertEquals(0, second.waitFor(120), second.stdout() + second.stderr());

        List<String> rows = Files.readAllLines(dir.resolve("epochs.csv"));
        Map<String, Integer> seen = new TreeMap<>();
        for (String row : rows.subList(1, rows.size())) {
            String[] f = row.split(",", -1);
            seen.merge(f[0] + "/" + f[1], 1, Integer::sum);
        }
        assertEquals(8 * 4, seen.size(), "every epoch x mode: " + seen.keySet());
        assertTrue(seen.values().stream().allMatch(n -> n == 1), "no row twice: " + seen);
        assertResumedEpochsHoldWhatTheirExtendsWrote(dir, rows);
        assertEquals(
                8,
                new ObjectMapper()
                        .readTree(dir.resolve("experiment.json").toFile())
                        .get("lastFinishedEpoch")
                        .asInt());
    }

    /**
     * The content of every epoch, resumed or not, worked out by hand: 300 records of 10 x 100 bytes, each extend
     * that was not skipped adds 100 bytes, and an epoch re-run after the interruption starts from what the
     * interrupted one had already applied (experiment.json resumesWithDrift); clean holds what main held.
     */
    private static void assertResumedEpochsHoldWhatTheirExtendsWrote(Path dir, List<String> rows) throws Exception {
        Map<Integer, Long> drift = new TreeMap<>();
        JsonNode resumes = new ObjectMapper()
                .readTree(dir.resolve("experiment.json").toFile())
                .path("resumesWithDrift");
        for (JsonNode r : resumes) {
            drift.merge(r.get("epoch").asInt(), r.get("primaryDataBytesDrift").asLong(), Long::sum);
        }
        List<String> header = List.of(rows.get(0).split(","));
        Map<String, String[]> byKey = new TreeMap<>();
        for (String row : rows.subList(1, rows.size())) {
            String[] f = row.split(",", -1);
            byKey.put(f[0] + "/" + f[1], f);
        }
        int bytes = header.indexOf("data_bytes");
        int records = header.indexOf("records");
        int ops = header.indexOf("extend_ops");
        int skipped = header.indexOf("extend_skipped");
        long expected = 300L * 10 * 100;
        for (int epoch = 1; epoch <= 8; epoch++) {
            String[] main = byKey.get(epoch + "/main");
            expected +=
                    (Long.parseLong(main[ops]) - Long.parseLong(main[skipped])) * 100 + drift.getOrDefault(epoch, 0L);
            assertEquals("300", main[records], "epoch " + epoch);
            assertEquals(expected, Long.parseLong(main[bytes]), "main's data volume after epoch " + epoch + " extends");
            assertEquals(main[bytes], byKey.get(epoch + "/clean")[bytes], "clean holds what main held, epoch " + epoch);
        }
    }

    /** Waits until the experiment's epochs.csv has at least {@code lines} lines; returns its folder. */
    private static Path awaitRows(Path results, int lines, CliProcess process) throws Exception {
        return Await.until(
                        "epochs.csv with " + lines + " lines under " + results,
                        Duration.ofSeconds(120),
                        Duration.ofMillis(100),
                        () -> {
                            if (Files.isDirectory(results)) {
                                try (Stream<Path> s = Files.list(results)) {
                                    for (Path d : s.toList()) {
                                        Path csv = d.resolve("epochs.csv");
                                        if (Files.exists(csv)
                                                && Files.readAllLines(csv).size() >= lines) {
                                            return Optional.of(d);
                                        }
                                    }
                                }
                            }
                            if (!process.process().isAlive()) {
                                throw new AssertionError("the experiment exited before epochs.csv had " + lines
                                        + " lines: " + process.stdout() + process.stderr());
                            }
                            return Optional.<Path>empty();
                        },
                        Optional::isPresent)
                .get();
    }
}
