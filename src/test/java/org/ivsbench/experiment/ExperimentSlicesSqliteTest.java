package org.ivsbench.experiment;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.testsupport.RunHarness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An experiment with its run phases in slices (experiment/slices), on SQLite: the slices ran in the mirrored
 * order, each mode's slices add up to its epochs.csv row exactly, slice s of main and of clean read the same keys
 * (same bytes, the data being equal), and every slice has its own run folder.
 */
class ExperimentSlicesSqliteTest {
    private static final int SLICES = 3;
    private static final int RUN_COUNT = 1000;

    @TempDir
    Path tmp;

    @Test
    void modesAlternateInSlicesThatAddUpToTheirRows() throws Exception {
        String xml = Files.readString(Path.of("config/experiments/ycsbivs_quick_sqlite.xml"))
                .replace("jdbc:sqlite:results/ycsbivs_quick.db", "jdbc:sqlite:" + tmp.resolve("q.db"))
                .replaceAll("<epochs>\\d+</epochs>", "<epochs>2</epochs>")
                .replaceAll("<modes>[^<]*</modes>", "<modes>main,clean,average-baseline</modes>")
                .replaceAll("<recordcount>\\d+</recordcount>", "<recordcount>200</recordcount>")
                .replaceAll("<count>\\d+</count>", "<count>" + RUN_COUNT + "</count>")
                .replaceAll("<warmup>\\d+</warmup>", "<warmup>0</warmup><slices>" + SLICES + "</slices>");
        Path results = Files.createDirectories(tmp.resolve("results"));
        ExperimentRuns.Ran ran = ExperimentRuns.run(RunHarness.config(tmp, xml), ExperimentListener.NONE, results);
        Path dir = ran.dir();

        List<String> slices = Files.readAllLines(dir.resolve("slices.csv"));
        assertEquals(EpochsCsv.SLICES_HEADER, slices.get(0));
        List<String> order = new ArrayList<>();
        Map<String, Long> sliceOps = new HashMap<>();
        long lastStart = 0;
        for (String line : slices.subList(1, slices.size())) {
            String[] c = line.split(",", -1);
            order.add(c[0] + ":" + c[2] + c[1]);
            sliceOps.merge(c[0] + ":" + c[2], Long.parseLong(c[5]), Long::sum);
            assertEquals(InterleavedModes.share(RUN_COUNT, Integer.parseInt(c[1]), SLICES), Long.parseLong(c[5]));
            long start = Long.parseLong(c[3]);
            assertTrue(start >= lastStart, "slices.csv out of time order at " + line);
            lastStart = start;
        }
        List<String> expected = new ArrayList<>();
        for (int epoch = 1; epoch <= 2; epoch++) {
            for (String s : new String[] {
                "main1",
                "clean1",
                "average-baseline1",
                "average-baseline2",
                "clean2",
                "main2",
                "main3",
                "clean3",
                "average-baseline3"
            }) {
                expected.add(epoch + ":" + s);
            }
        }
        assertEquals(expected, order);

        List<String> rows = Files.readAllLines(dir.resolve("epochs.csv"));
        List<String> header = List.of(rows.get(0).split(","));
        int mode = header.indexOf("mode");
        int runOps = header.indexOf("run_ops");
        assertEquals(1 + 2 * 3, rows.size(), rows.toString());
        for (String row : rows.subList(1, rows.size())) {
            String[] c = row.split(",", -1);
            assertEquals(RUN_COUNT, Long.parseLong(c[runOps]), row);
            assertEquals(RUN_COUNT, sliceOps.get(c[0] + ":" + c[mode]), row);
        }

        ObjectMapper json = new ObjectMapper();
        for (int s = 1; s <= SLICES; s++) {
            String part = InterleavedModes.part(s, SLICES);
            JsonNode main = json.readTree(
                    dir.resolve("epoch-002/main/" + part + "/summary.json").toFile());
            JsonNode clean = json.readTree(
                    dir.resolve("epoch-002/clean/" + part + "/summary.json").toFile());
            assertTrue(Files.isDirectory(dir.resolve("epoch-002/average-baseline/" + part)), part);
            assertEquals(
                    main.get("randomSeed").asLong(), clean.get("randomSeed").asLong(), part + " seeds");
            long read = main.get("phases").get(0).get("bytesRead").asLong();
            assertTrue(read > 0, part + ": main read nothing");
            assertEquals(read, clean.get("phases").get(0).get("bytesRead").asLong(), part + ": other keys");
        }
        long countSum = 0;
        for (String line : Files.readAllLines(dir.resolve("latency_by_size.csv"))) {
            if (line.startsWith("2,main,run,")) {
                countSum += Long.parseLong(line.split(",")[6]);
            }
        }
        assertEquals(RUN_COUNT, countSum, "latency_by_size.csv's main run rows of epoch 2 count every read once");
        assertTrue(ran.console().contains("epoch 2/2 mode clean slice 3/3: 333 ops"), ran.console());
        // The mode's line for its slices added up, as an unsliced run prints it (scripts/repro.sh reads it).
        assertTrue(ran.console().matches("(?s).*epoch 2/2 mode clean: 1,000 ops, .*\\(3 slices\\).*"), ran.console());
    }
}
