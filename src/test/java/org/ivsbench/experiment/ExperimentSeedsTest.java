package org.ivsbench.experiment;

import java.nio.file.Files;
import java.nio.file.Path;

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
}
