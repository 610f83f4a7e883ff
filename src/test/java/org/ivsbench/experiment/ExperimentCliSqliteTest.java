package org.ivsbench.experiment;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.bench.ycsbivs.YcsbIvsExperiment;
import org.ivsbench.cli.Main;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The quick SQLite preset end to end through the CLI, then a resume that adds epochs 3 and 4. */
class ExperimentCliSqliteTest {
    private static final String PRESET = "config/experiments/ycsbivs_quick_sqlite.xml";

    @TempDir
    Path tmp;

    private Path preset(int epochs) throws Exception {
        String original = Files.readString(Path.of(PRESET));
        // The experiment builds every phase: the preset needs neither <works> nor <transactiontypes>.
        assertFalse(original.contains("<works>") || original.contains("<transactiontypes>"), PRESET);
        String xml = original.replace("jdbc:sqlite:results/ycsbivs_quick.db", "jdbc:sqlite:" + tmp.resolve("quick.db"))
                .replaceAll("<epochs>\\d+</epochs>", "<epochs>" + epochs + "</epochs>")
                // The preset's own sizes are for the demo; the test keeps the run small.
                .replaceAll("<recordcount>\\d+</recordcount>", "<recordcount>200</recordcount>")
                .replaceAll("<count>\\d+</count>", "<count>2000</count>")
                .replaceAll("<warmup>\\d+</warmup>", "<warmup>0</warmup>");
        Path f = tmp.resolve("quick-" + epochs + ".xml");
        Files.writeString(f, xml);
        return f;
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

    @Test
    void quickPresetRunsAndResumes() throws Exception {
        Path results = tmp.resolve("results");
        assertEquals(
                0,
                cli(
                        "-b",
                        "ycsbivs",
                        "-c",
                        preset(2).toString(),
                        "--create",
                        "--load",
                        "--execute",
                        "-d",
                        results.toString()));
        Path dir;
        try (Stream<Path> s = Files.list(results)) {
            List<Path> dirs = s.toList();
            assertEquals(1, dirs.size());
            dir = dirs.get(0);
        }
        assertTrue(dir.getFileName().toString().startsWith("ycsbivs-experiment_"), dir.toString());
        List<String> first = Files.readAllLines(dir.resolve("epochs.csv"));
        assertEquals(EpochsCsv.epochsHeader(YcsbIvsExperiment.RUN_TYPE_COLUMNS), first.get(0));
        assertEquals(1 + 2 * 4, first.size(), first.toString());
        assertTrue(Files.readString(dir.resolve("experiment.json")).contains("\"lastFinishedEpoch\" : 2"));
        List<String> firstBySize = Files.readAllLines(dir.resolve("latency_by_size.csv"));

        // Resume with 4 epochs: only 3 and 4 run, appended after the rows already there.
        assertEquals(
                0, cli("-b", "ycsbivs", "-c", preset(4).toString(), "--execute", "--resume", "-d", results.toString()));
        try (Stream<Path> s = Files.list(results)) {
            assertEquals(1, s.count(), "resume reuses the folder");
        }
        List<String> all = Files.readAllLines(dir.resolve("epochs.csv"));
        assertEquals(1 + 4 * 4, all.size(), all.toString());
        assertEquals(first, all.subList(0, first.size()));
        String[] modes = {"main", "clean", "average-baseline", "spread-baseline"};
        for (int epoch = 1; epoch <= 4; epoch++) {
            for (int m = 0; m < 4; m++) {
                String[] row = all.get(1 + (epoch - 1) * 4 + m).split(",", -1);
                assertEquals(
                        EpochsCsv.epochsHeader(YcsbIvsExperiment.RUN_TYPE_COLUMNS)
                                .split(",")
                                .length,
                        row.length);
                assertEquals(Integer.toString(epoch), row[0]);
                assertEquals(modes[m], row[1]);
                assertTrue(Files.isRegularFile(
                        dir.resolve(String.format("epoch-%03d/%s/run/summary.json", epoch, modes[m]))));
            }
            assertTrue(Files.isRegularFile(dir.resolve(String.format("epoch-%03d/main/extend/summary.json", epoch))));
            // Every epoch adds 2000 extends x 100 bytes (no value reaches the cap): data grows by 200,000 bytes.
            assertEquals(
                    200L * 1000 + epoch * 200_000L,
                    Long.parseLong(all.get(1 + (epoch - 1) * 4).split(",")[3]));
        }
        List<String> sizes = Files.readAllLines(dir.resolve("value_sizes.csv"));
        assertEquals(EpochsCsv.SIZES_HEADER, sizes.get(0));
        for (int epoch = 1; epoch <= 4; epoch++) {
            String e = epoch + ",";
            long values = sizes.stream()
                    .filter(l -> l.startsWith(e))
                    .mapToLong(l -> Long.parseLong(l.split(",")[3]))
                    .sum();
            assertEquals(200 * 10, values, "value_sizes.csv epoch " + epoch);
        }
        checkLatencyBySize(dir, all, firstBySize);
        assertTrue(Files.readString(dir.resolve("experiment.json")).contains("\"lastFinishedEpoch\" : 4"));
    }

    /**
     * The experiment's latency_by_size.csv: each epoch x mode's run rows add up to its run_ops in epochs.csv, main's
     * extend rows to extend_ops, and the resume appended to the rows of epochs 1 and 2 without touching them.
     */
    private static void checkLatencyBySize(Path dir, List<String> epochs, List<String> beforeResume) throws Exception {
        List<String> lines = Files.readAllLines(dir.resolve("latency_by_size.csv"));
        assertEquals(EpochsCsv.LATENCY_BY_SIZE_HEADER, lines.get(0));
        assertEquals(beforeResume, lines.subList(0, beforeResume.size()));
        Map<String, Long> counts = new TreeMap<>(); // epoch/mode/phase -> operations
        for (String line : lines.subList(1, lines.size())) {
            String[] c = line.split(",", -1);
            counts.merge(c[0] + "/" + c[1] + "/" + c[2], Long.parseLong(c[6]), Long::sum);
        }
        List<String> header = List.of(epochs.get(0).split(","));
        Map<String, Long> want = new TreeMap<>();
        for (String row : epochs.subList(1, epochs.size())) {
            String[] c = row.split(",", -1);
            String key = c[0] + "/" + c[1];
            want.put(key + "/run", Long.parseLong(c[header.indexOf("run_ops")]));
            if (c[1].equals("main")) {
                want.put(key + "/extend", Long.parseLong(c[header.indexOf("extend_ops")]));
            }
        }
        assertEquals(want, counts);
    }

    /** Runs the CLI with stderr captured; returns the exit code and stderr. */
    private static Object[] cliErr(String... args) {
        PrintStream old = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try {
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            int code = cli(args);
            return new Object[] {code, err.toString(StandardCharsets.UTF_8)};
        } finally {
            System.setErr(old);
        }
    }

    private static String experimentJson(Path results) throws Exception {
        try (Stream<Path> s = Files.list(results)) {
            return Files.readString(s.findFirst().orElseThrow().resolve("experiment.json"));
        }
    }

    /**
     * --resume continues the same experiment on the same primary, or refuses: not with --create/--load, not with
     * other parameters, not on a re-created primary. Operations of an interrupted epoch that reached the
     * primary cannot be undone: the resume goes on and records the drift.
     */
    @Test
    void resumeRefusesAnotherDatabaseAndRecordsDrift() throws Exception {
        Path results = tmp.resolve("results");
        String d = results.toString();
        assertEquals(0, cli("-b", "ycsbivs", "-c", preset(1).toString(), "--create", "--load", "--execute", "-d", d));
        String before = experimentJson(results);
        assertTrue(before.contains("\"dataBytes\" : " + (200L * 1000 + 200_000L)), before);

        Object[] r = cliErr(
                "-b", "ycsbivs", "-c", preset(2).toString(), "--create", "--load", "--execute", "--resume", "-d", d);
        assertEquals(2, r[0], (String) r[1]);
        assertTrue(((String) r[1]).contains("--resume"), (String) r[1]);

        Path other = tmp.resolve("other.xml");
        Files.writeString(
                other,
                Files.readString(preset(2)).replaceAll("<randomSeed>\\d+</randomSeed>", "<randomSeed>99</randomSeed>"));
        r = cliErr("-b", "ycsbivs", "-c", other.toString(), "--execute", "--resume", "-d", d);
        assertEquals(1, r[0], (String) r[1]);
        assertTrue(((String) r[1]).contains("randomSeed (was"), (String) r[1]);

        // Re-created and re-loaded between the runs: same record count, but the growth of epoch 1 is gone.
        assertEquals(0, cli("-b", "ycsbivs", "-c", preset(2).toString(), "--create", "--load", "-d", d));
        r = cliErr("-b", "ycsbivs", "-c", preset(2).toString(), "--execute", "--resume", "-d", d);
        assertEquals(1, r[0], (String) r[1]);
        assertTrue(((String) r[1]).contains("not the experiment's primary"), (String) r[1]);
        assertEquals(
                before.replaceAll("\"updated\".*", ""),
                experimentJson(results).replaceAll("\"updated\".*", ""),
                "a refused resume changes nothing");

        // The re-loaded primary (200,000 bytes) grown past the end of epoch 1 (400,000 bytes) by 1,000 bytes:
        // what an extend phase interrupted after some appends leaves.
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + tmp.resolve("quick.db"));
                Statement st = c.createStatement()) {
            assertEquals(200, st.executeUpdate("UPDATE usertable SET FIELD0 = FIELD0 || printf('%01005d', 0)"));
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream oldOut = System.out;
        int code;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            code = Main.execute("-b", "ycsbivs", "-c", preset(2).toString(), "--execute", "--resume", "-d", d);
        } finally {
            System.setOut(oldOut);
        }
        assertEquals(0, code, out.toString(StandardCharsets.UTF_8));
        assertTrue(
                out.toString(StandardCharsets.UTF_8).contains("warning: the primary holds 1000 bytes more"),
                out.toString(StandardCharsets.UTF_8));
        String after = experimentJson(results);
        assertTrue(
                after.contains("\"primaryDataBytesDrift\" : 1000") && after.contains("\"lastFinishedEpoch\" : 2"),
                after);
    }

    @Test
    void badExperimentElementIsAUsageErrorBeforeAnythingRuns() throws Exception {
        String xml = Files.readString(preset(4)).replace("<epochs>4</epochs>", "<epochs>zero</epochs>");
        Path f = tmp.resolve("bad.xml");
        Files.writeString(f, xml);
        PrintStream old = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try {
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            code = Main.execute(
                    "-b",
                    "ycsbivs",
                    "-c",
                    f.toString(),
                    "--create",
                    "--load",
                    "--execute",
                    "-d",
                    tmp.resolve("results").toString());
        } finally {
            System.setErr(old);
        }
        assertEquals(2, code);
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("experiment/epochs: 'zero'"), err.toString());
        assertTrue(Files.notExists(tmp.resolve("quick.db")), "nothing touched the database");
    }
}
