package org.ivsbench.db.memory;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.cli.Main;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A whole ycsbivs experiment, all four modes, on the test-only MEMORY kind through the CLI: the experiment,
 * the monitor and the results need nothing from a binding beyond its kind and the capabilities it offers (this
 * one has no server facts and no counters).
 */
class MemoryExperimentCliTest {
    private static final String PRESET = "config/experiments/ycsbivs_quick_sqlite.xml";
    private static final String[] MODES = {"main", "clean", "average-baseline", "spread-baseline"};

    @TempDir
    Path tmp;

    @Test
    void allFourModesRunOnTheMemoryKind() throws Exception {
        String xml = Files.readString(Path.of(PRESET))
                .replace("<type>SQLITE</type>", "<type>MEMORY</type>")
                .replace("jdbc:sqlite:results/ycsbivs_quick.db", "memory:cli-experiment")
                .replaceAll("<epochs>\\d+</epochs>", "<epochs>2</epochs>")
                .replaceAll("<recordcount>\\d+</recordcount>", "<recordcount>50</recordcount>")
                // A low cap, so extends are also SKIPPED and the cap path runs end to end.
                .replaceAll("<maxfieldlength>\\d+</maxfieldlength>", "<maxfieldlength>400</maxfieldlength>")
                .replaceAll("<count>\\d+</count>", "<count>1000</count>")
                .replaceAll("<warmup>\\d+</warmup>", "<warmup>0</warmup>");
        Path config = tmp.resolve("memory.xml");
        Files.writeString(config, xml);
        Path results = tmp.resolve("results");

        assertEquals(
                0,
                cli(
                        "-b",
                        "ycsbivs",
                        "-c",
                        config.toString(),
                        "--create",
                        "--load",
                        "--execute",
                        "-d",
                        results.toString()));

        Path dir;
        try (Stream<Path> s = Files.list(results)) {
            dir = s.findFirst().orElseThrow();
        }
        List<String> rows = Files.readAllLines(dir.resolve("epochs.csv"));
        assertTrue(rows.get(0).startsWith("epoch,mode,records,"), rows.get(0));
        assertEquals(1 + 2 * MODES.length, rows.size(), rows.toString());
        long skipped = 0;
        for (int epoch = 1; epoch <= 2; epoch++) {
            for (int m = 0; m < MODES.length; m++) {
                String[] row = rows.get(1 + (epoch - 1) * MODES.length + m).split(",", -1);
                assertEquals(Integer.toString(epoch), row[0]);
                assertEquals(MODES[m], row[1]);
                assertTrue(Long.parseLong(row[2]) > 0, "records in " + MODES[m]);
                assertTrue(Long.parseLong(row[14]) > 0, "run_ops in " + MODES[m]);
            }
            skipped += Long.parseLong(rows.get(1 + (epoch - 1) * MODES.length).split(",", -1)[10]);
        }
        assertTrue(skipped > 0, "the cap made some extends SKIPPED: " + rows);
        assertTrue(Files.readString(dir.resolve("experiment.json")).contains("\"lastFinishedEpoch\" : 2"));
    }

    private static int cli(String... args) {
        PrintStream old = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            return Main.execute(args);
        } finally {
            System.setOut(old);
            System.out.print(out.toString(StandardCharsets.UTF_8));
        }
    }
}
