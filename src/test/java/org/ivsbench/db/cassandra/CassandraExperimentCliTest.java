package org.ivsbench.db.cassandra;

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
 * The ycsbivs experiment in miniature on the real Cassandra through the CLI: all four modes (the baselines and the
 * clean copy live in keyspaces of their own), two epochs, a low cap so extends are also SKIPPED, and the monitor on,
 * so the server's counters and its process are sampled as in a real run.
 */
class CassandraExperimentCliTest {
    private static final String PRESET = "config/experiments/ycsbivs_quick_sqlite.xml";
    private static final String[] MODES = {"main", "clean", "average-baseline", "spread-baseline"};

    @TempDir
    Path tmp;

    @Test
    void allFourModesRunOnCassandra() throws Exception {
        String xml = Files.readString(Path.of(PRESET))
                .replace("<type>SQLITE</type>", CassandraFixture.connection())
                .replace("<url>jdbc:sqlite:results/ycsbivs_quick.db</url>", "")
                .replace("<table>usertable</table>", "<table>cli_experiment</table>")
                .replaceAll("<epochs>\\d+</epochs>", "<epochs>2</epochs>")
                .replaceAll("<recordcount>\\d+</recordcount>", "<recordcount>100</recordcount>")
                .replaceAll("<maxfieldlength>\\d+</maxfieldlength>", "<maxfieldlength>400</maxfieldlength>")
                .replaceAll("<count>\\d+</count>", "<count>600</count>")
                .replaceAll("<warmup>\\d+</warmup>", "<warmup>0</warmup>");
        Path config = tmp.resolve("cassandra.xml");
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
                long records = Long.parseLong(row[2]);
                // main and its clean copy hold the loaded records; a spread baseline may be built bigger.
                assertTrue(m < 2 ? records == 100 : records > 0, "records in " + MODES[m] + ": " + records);
                assertTrue(Long.parseLong(row[14]) > 0, "run_ops in " + MODES[m]);
            }
            skipped += Long.parseLong(rows.get(1 + (epoch - 1) * MODES.length).split(",", -1)[10]);
        }
        assertTrue(skipped > 0, "the cap made some extends SKIPPED: " + rows);
        assertTrue(Files.readString(dir.resolve("experiment.json")).contains("\"lastFinishedEpoch\" : 2"));
        String all = allText(dir);
        assertTrue(all.contains("thread_pools.ReadStage.completed_tasks"), "the monitor sampled the server's counters");
        assertTrue(all.contains("5.0."), "the environment names the server's release");
    }

    /** Every small text file of the results folder, concatenated (where a name appears is the writers' business). */
    private static String allText(Path dir) throws Exception {
        StringBuilder sb = new StringBuilder();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                if (Files.size(f) < 5_000_000) {
                    sb.append(new String(Files.readAllBytes(f), StandardCharsets.UTF_8));
                }
            }
        }
        return sb.toString();
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
