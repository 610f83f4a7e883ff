package org.ivsbench.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.mode.SweepCsv;
import org.ivsbench.testsupport.CliArgs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A real sweep through the command line on SQLite: folders, sweep.csv rows, reloads between trials. */
class SweepCliTest {
    static final String QUICK = "config/sweeps/ycsb_a_sqlite_quick.xml";

    @TempDir
    Path tmp;

    /** The quick preset, smaller, on {@code url} with the given sweep lists. */
    static String quickPreset(String type, String url, String terminals, String counts, int trials) throws Exception {
        return Files.readString(Path.of(QUICK))
                .replace("<type>SQLITE</type>", "<type>" + type + "</type>")
                .replace("jdbc:sqlite:results/ycsb_a_sqlite_quick.db", url)
                .replaceAll("<recordcount>\\d+</recordcount>", "<recordcount>200</recordcount>")
                .replaceAll(
                        "<sweep>[\\s\\S]*</sweep>",
                        "<sweep><terminals>" + terminals + "</terminals><counts>" + counts + "</counts><trials>"
                                + trials + "</trials><reload>true</reload></sweep>");
    }

    /** The single sweep folder under {@code results}. */
    static Path sweepFolder(Path results) throws Exception {
        try (Stream<Path> s = Files.list(results)) {
            List<Path> dirs = s.toList();
            assertEquals(1, dirs.size(), dirs.toString());
            assertTrue(dirs.get(0).getFileName().toString().startsWith("ycsbivs-sweep_"), dirs.toString());
            return dirs.get(0);
        }
    }

    /** sweep.csv as rows of cells, header first. */
    static List<String[]> rows(Path sweep) throws Exception {
        List<String[]> rows = new ArrayList<>();
        for (String line : Files.readAllLines(sweep.resolve("sweep.csv"))) {
            rows.add(line.split(",", -1));
        }
        assertEquals(SweepCsv.HEADER, String.join(",", rows.get(0)));
        return rows;
    }

    @Test
    void twoTerminalCountsTimesTwoTrialsGiveFourPointsAndRows() throws Exception {
        Path config = tmp.resolve("sweep.xml");
        Files.writeString(config, quickPreset("SQLITE", "jdbc:sqlite:" + tmp.resolve("s.db"), "1,2", "300", 2));
        Path results = tmp.resolve("results");

        CliHarness.Result r = CliHarness.run(CliArgs.createLoadExecute(config, results));

        assertEquals(0, r.code(), r.err());
        Path sweep = sweepFolder(results);
        List<String[]> rows = rows(sweep);
        assertEquals(5, rows.size());
        String[][] expected = {{"1", "1"}, {"1", "2"}, {"2", "1"}, {"2", "2"}};
        for (int i = 0; i < expected.length; i++) {
            String[] row = rows.get(i + 1);
            assertEquals("SQLITE", row[0]);
            assertEquals("ycsbivs", row[1]);
            assertEquals(expected[i][0], row[3], "terminals");
            assertEquals("300", row[4], "count");
            assertEquals(expected[i][1], row[5], "trial");
            assertTrue(Double.parseDouble(row[6]) > 0, "runtime_ms");
            assertEquals("300", row[7], "a count phase ends after exactly its count");
            assertEquals("0", row[15], "errors");
            assertEquals("false", row[16], "interrupted");
            String folder = "t" + expected[i][0] + "-n300-trial" + expected[i][1];
            assertEquals(folder, row[17]);
            assertTrue(Files.isRegularFile(sweep.resolve(folder).resolve("summary.json")), folder);
        }
        // --load loaded the first trial's data; the three later points each reloaded.
        assertEquals(3, r.out().split("Reloaded 200 records", -1).length - 1, r.out());
        assertTrue(r.out().contains("[4/4] terminals 2, count 300, trial 2:"), r.out());
        assertTrue(r.out().contains("ETA "), r.out());
    }

    @Test
    void aSweepRejectsOptionsItCannotHonour() throws Exception {
        Path config = tmp.resolve("sweep.xml");
        Files.writeString(config, quickPreset("SQLITE", "jdbc:sqlite:" + tmp.resolve("s.db"), "1,2", "300", 2));

        CliHarness.Result r = CliHarness.run(
                "-b",
                "ycsbivs",
                "-c",
                config.toString(),
                "--execute",
                "--benchbase-outputs",
                "-d",
                tmp.resolve("results").toString());

        assertEquals(Main.USAGE, r.code());
        assertEquals(
                "error: --benchbase-outputs: not supported with a <sweep>: use sweep.csv and each point's"
                        + " summary.json",
                r.err().strip());
    }
}
