package org.ivsbench.experiment;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.testsupport.RunHarness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every mode of an epoch replays the same run-phase sequence: main on the primary and clean on its copy read
 * the same keys, so with equal data they read the same bytes, operation for operation.
 */
class ExperimentSeedsTest {
    @TempDir
    Path tmp;

    @Test
    void mainAndCleanOfOneEpochReadTheSameKeys() throws Exception {
        String xml = Files.readString(Path.of("config/experiments/ycsbivs_quick_sqlite.xml"))
                .replace("jdbc:sqlite:results/ycsbivs_quick.db", "jdbc:sqlite:" + tmp.resolve("q.db"))
                .replaceAll("<epochs>\\d+</epochs>", "<epochs>2</epochs>")
                .replaceAll("<modes>[^<]*</modes>", "<modes>main,clean</modes>")
                .replaceAll("<recordcount>\\d+</recordcount>", "<recordcount>200</recordcount>")
                .replaceAll("<count>\\d+</count>", "<count>2000</count>")
                .replaceAll("<warmup>\\d+</warmup>", "<warmup>0</warmup>");
        Path results = Files.createDirectories(tmp.resolve("results"));
        Path dir = ExperimentRuns.run(RunHarness.config(tmp, xml), ExperimentListener.NONE, results)
                .dir();
        ObjectMapper json = new ObjectMapper();
        for (String epoch : new String[] {"epoch-001", "epoch-002"}) {
            JsonNode main =
                    json.readTree(dir.resolve(epoch + "/main/run/summary.json").toFile());
            JsonNode clean =
                    json.readTree(dir.resolve(epoch + "/clean/run/summary.json").toFile());
            assertEquals(
                    main.get("randomSeed").asLong(), clean.get("randomSeed").asLong(), epoch + " seeds");
            JsonNode mainPhase = main.get("phases").get(0);
            JsonNode cleanPhase = clean.get("phases").get(0);
            long read = mainPhase.get("bytesRead").asLong();
            assertTrue(read > 0, epoch + ": main read nothing");
            // Zipfian extends left the values of different sizes: other keys would read other byte totals.
            assertEquals(read, cleanPhase.get("bytesRead").asLong(), epoch + ": main and clean read other keys");
        }
    }

    /**
     * The baselines as a separate sweep over the data volumes (the paper measured them apart from main's runs):
     * a second experiment with the same seed and only the baseline modes replays the same extend phases, so its
     * baselines see exactly the volumes of the first one's epochs, with no baseline load between main's runs.
     */
    @Test
    void aBaselinesOnlyRunMeasuresTheSameVolumesAsTheEpochs() throws Exception {
        List<String> together = sizeColumns(run("all", "main,clean,average-baseline,spread-baseline"));
        List<String> apart = sizeColumns(run("apart", "average-baseline,spread-baseline"));
        assertEquals(4, apart.size(), apart.toString());
        assertEquals(together.stream().filter(r -> r.contains("baseline")).toList(), apart);
    }

    private Path run(String name, String modes) throws Exception {
        Path own = Files.createDirectories(tmp.resolve(name));
        String xml = Files.readString(Path.of("config/experiments/ycsbivs_quick_sqlite.xml"))
                .replace("jdbc:sqlite:results/ycsbivs_quick.db", "jdbc:sqlite:" + own.resolve("q.db"))
                .replaceAll("<epochs>\\d+</epochs>", "<epochs>2</epochs>")
                .replaceAll("<modes>[^<]*</modes>", "<modes>" + modes + "</modes>")
                .replaceAll("<recordcount>\\d+</recordcount>", "<recordcount>200</recordcount>")
                .replaceAll("<count>\\d+</count>", "<count>300</count>")
                .replaceAll("<warmup>\\d+</warmup>", "<warmup>0</warmup>");
        return ExperimentRuns.run(
                        RunHarness.config(own, xml),
                        ExperimentListener.NONE,
                        Files.createDirectories(own.resolve("results")))
                .dir();
    }

    /** epoch, mode and the size columns (records .. value_max) of every row of epochs.csv. */
    private static List<String> sizeColumns(Path dir) throws Exception {
        return Files.readAllLines(dir.resolve("epochs.csv")).stream()
                .skip(1)
                .map(l -> String.join(",", List.of(l.split(",", -1)).subList(0, 9)))
                .toList();
    }
}
