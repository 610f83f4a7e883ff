package org.ivsbench.experiment;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.cli.Main;
import org.ivsbench.config.ConfigException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** experiment/trials: trials.csv against numbers worked out by hand, and three trials end to end on SQLite. */
class TrialsTest {
    @TempDir
    Path tmp;

    private static final String HEADER = "epoch,mode,data_bytes,run_throughput,run_lat_avg_us,run_read_lat_avg_us";

    private Path epochs(String name, String... rows) throws Exception {
        Path f = Files.createDirectories(tmp.resolve(name)).resolve("epochs.csv");
        Files.writeString(f, HEADER + "\n" + String.join("\n", rows) + "\n");
        return f;
    }

    private static Map<String, String> row(List<String> lines, int index) {
        String[] header = lines.get(0).split(",", -1);
        String[] cells = lines.get(index).split(",", -1);
        assertEquals(header.length, cells.length, lines.get(index));
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i < header.length; i++) {
            m.put(header[i], cells[i]);
        }
        return m;
    }

    @Test
    void meanSpreadMinAndMaxPerEpochAndMode() throws Exception {
        Path a = epochs("t1", "1,main,1000,100,10,", "1,clean,1000,200,5,5", "2,main,2000,90,12,");
        Path b = epochs("t2", "1,main,1000,110,14,", "1,clean,1000,220,4,6", "2,main,2000,60,20,");
        Path c = epochs("t3", "1,main,1000,120,12,", "1,clean,1000,,6,"); // stopped before epoch 2
        Path out = tmp.resolve("trials.csv");
        TrialsCsv.write(List.of(a, b, c, tmp.resolve("missing/epochs.csv")), out);
        List<String> lines = Files.readAllLines(out);
        assertEquals(4, lines.size(), lines.toString());
        Map<String, String> main1 = row(lines, 1);
        assertEquals("1", main1.get("epoch"));
        assertEquals("main", main1.get("mode"));
        assertEquals("3", main1.get("trials"));
        // 100, 110, 120: mean 110, sd sqrt((100 + 0 + 100) / 2) = 10
        assertEquals("110.000", main1.get("run_throughput_mean"));
        assertEquals("10.000", main1.get("run_throughput_sd"));
        assertEquals("100.000", main1.get("run_throughput_min"));
        assertEquals("120.000", main1.get("run_throughput_max"));
        // 10, 14, 12: mean 12, sd sqrt((4 + 4 + 0) / 2) = 2
        assertEquals("12.000", main1.get("run_lat_avg_us_mean"));
        assertEquals("2.000", main1.get("run_lat_avg_us_sd"));
        assertEquals("", main1.get("run_read_lat_avg_us_mean"), "no trial had the cell");
        Map<String, String> clean1 = row(lines, 2);
        assertEquals("clean", clean1.get("mode"), "modes in their canonical order");
        // throughput 200, 220 (trial 3's cell is empty): mean 210, sd sqrt((100 + 100) / 1) = 14.142
        assertEquals("210.000", clean1.get("run_throughput_mean"));
        assertEquals("14.142", clean1.get("run_throughput_sd"));
        // read latency 5, 6: mean 5.5
        assertEquals("5.500", clean1.get("run_read_lat_avg_us_mean"));
        Map<String, String> main2 = row(lines, 3);
        assertEquals("2", main2.get("trials"));
        // 90, 60: mean 75, sd sqrt(225 + 225) = 21.213
        assertEquals("75.000", main2.get("run_throughput_mean"));
        assertEquals("21.213", main2.get("run_throughput_sd"));
        assertEquals("2000.000", main2.get("data_bytes_mean"));
        assertEquals("0.000", main2.get("data_bytes_sd"));
    }

    @Test
    void oneTrialHasNoSpread() {
        assertEquals(List.of("7.000", "", "7.000", "7.000"), TrialsCsv.stats(List.of(7.0)));
        assertEquals(List.of("", "", "", ""), TrialsCsv.stats(List.of()));
    }

    @Test
    void trialsIsAPositiveWholeNumber() throws Exception {
        assertEquals(1, Trials.of(Map.of()));
        assertEquals(5, Trials.of(Map.of("trials", "5")));
        ConfigException e = assertThrows(ConfigException.class, () -> Trials.of(Map.of("trials", "0")));
        assertTrue(
                e.getMessage().contains("experiment/trials") && e.getMessage().contains("'0'"), e.getMessage());
        assertNotEquals(Trials.seed(42, 1), Trials.seed(42, 2));
        assertEquals(42, Trials.seed(42, 1), "trial 1 is the experiment as configured");
    }

    @Test
    void threeTrialsOnSqliteEachFromAFreshLoad() throws Exception {
        String xml = Files.readString(Path.of("config/experiments/ycsbivs_quick_sqlite.xml"))
                .replace("jdbc:sqlite:results/ycsbivs_quick.db", "jdbc:sqlite:" + tmp.resolve("t.db"))
                .replaceAll("<epochs>\\d+</epochs>", "<epochs>2</epochs>")
                .replaceAll("<modes>[^<]*</modes>", "<modes>main,average-baseline</modes>")
                .replaceAll("<recordcount>\\d+</recordcount>", "<recordcount>100</recordcount>")
                .replaceAll("<count>\\d+</count>", "<count>300</count>")
                .replaceAll("<warmup>\\d+</warmup>", "<warmup>0</warmup><trials>3</trials>");
        Path config = tmp.resolve("trials.xml");
        Files.writeString(config, xml);
        Path results = tmp.resolve("results");
        PrintStream old = System.out;
        int code;
        try {
            System.setOut(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
            code = Main.execute(new String[] {
                "-b", "ycsbivs", "-c", config.toString(), "--create", "--load", "--execute", "-d", results.toString()
            });
        } finally {
            System.setOut(old);
        }
        assertEquals(0, code);
        Path dir;
        try (Stream<Path> s = Files.list(results)) {
            dir = s.findFirst().orElseThrow();
        }
        assertTrue(dir.getFileName().toString().startsWith("ycsbivs-trials_"), dir.toString());
        List<Path> trials = ExperimentTrials.epochsFiles(dir);
        assertEquals(3, trials.size());
        // Every trial starts from a fresh load of 100 records of 1,000 bytes: 2 epochs x 300 extends x 100 bytes
        // more by the end of epoch 2, whatever the seed (no extend reaches the cap).
        for (Path f : trials) {
            List<String> lines = Files.readAllLines(f);
            Map<String, String> main2 = row(lines, 3);
            assertEquals("2", main2.get("epoch"));
            assertEquals("main", main2.get("mode"));
            assertEquals(Long.toString(100 * 1000 + 2 * 300 * 100), main2.get("data_bytes"), f.toString());
        }
        List<String> summary = Files.readAllLines(dir.resolve("trials.csv"));
        assertEquals(1 + 2 * 2, summary.size(), summary.toString());
        Map<String, String> main2 = row(summary, 3);
        assertEquals("3", main2.get("trials"));
        assertEquals("160000.000", main2.get("data_bytes_mean"));
        assertEquals("0.000", main2.get("data_bytes_sd"));
        // The trials ran their own seeds: the extends landed on other keys, so the largest values differ.
        List<String> maxima = trials.stream()
                .map(f -> {
                    try {
                        return row(Files.readAllLines(f), 3).get("value_max");
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                })
                .toList();
        assertTrue(maxima.stream().distinct().count() > 1 || !maxima.get(0).equals("100"), maxima.toString());
    }
}
