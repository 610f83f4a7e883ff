package org.ivsbench.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** BenchBase's DBWorkload options: their BenchBase meaning, or one line saying what to use instead (exit 2). */
class BenchBaseOptionsTest {
    @TempDir
    Path tmp;

    private Path config(String work) throws Exception {
        String xml = Files.readString(Path.of("config/sqlite/sample_ycsb_config.xml"))
                .replace(
                        "jdbc:sqlite:results/ycsb.db",
                        "jdbc:sqlite:" + tmp.resolve("o.db").toAbsolutePath())
                .replace("<time>60</time>", work);
        Path f = tmp.resolve("c.xml");
        Files.writeString(f, xml);
        return f;
    }

    private void refused(String expected, String... args) {
        CliHarness.Result r = CliHarness.run(args);
        assertEquals(Main.USAGE, r.code(), r.out() + r.err());
        assertTrue(r.err().contains(expected), r.err());
        assertEquals(1, r.err().strip().lines().count(), "one line: " + r.err());
        assertTrue(Files.notExists(tmp.resolve("o.db")), "nothing touched the database");
    }

    @Test
    void unsupportedOptionsSayWhatToUseInstead() throws Exception {
        String c = config("<time>1</time>").toString();
        refused("--dialects-export: not supported", "-b", "ycsb", "-c", c, "--dialects-export", "true");
        refused("several benchmarks in one run are not supported", "-b", "ycsb,tpcc", "-c", c, "--execute");
        refused("-im: '50' must be 0", "-b", "ycsb", "-c", c, "--execute", "-im", "50");
        refused(
                "--benchbase-raw: give it with --benchbase-outputs",
                "-b",
                "ycsb",
                "-c",
                c,
                "--execute",
                "--benchbase-raw");
        refused(
                "-jh: '" + tmp.resolve("no/such/h.json") + "' is not a file in an existing folder",
                "-b",
                "ycsb",
                "-c",
                c,
                "--execute",
                "-jh",
                tmp.resolve("no/such/h.json").toString());
    }

    @Test
    void helpNamesBenchBasesOptionsAndItsWindowDefault() {
        CliHarness.Result r = CliHarness.run("--help");
        assertEquals(0, r.code());
        String help = r.out().replaceAll("\\s+", " ");
        for (String option : List.of(
                "-im, --interval-monitor", "-jh, --json-histograms", "--benchbase-outputs", "BenchBase's is 5")) {
            assertTrue(help.contains(option), option + " in " + r.out());
        }
    }

    @Test
    void intervalMonitorSetsTheMonitorInterval() throws Exception {
        Path results = tmp.resolve("results");
        CliHarness.Result r = CliHarness.run(
                "-b",
                "ycsb",
                "-c",
                config("<time>1</time>").toString(),
                "--create",
                "--load",
                "--execute",
                "-d",
                results.toString(),
                "-im",
                "250");
        assertEquals(0, r.code(), r.err());
        Path dir;
        try (var dirs = Files.list(results)) {
            dir = dirs.filter(Files::isDirectory).findFirst().orElseThrow();
        }
        assertTrue(r.out().contains("Next: .cache/venv/bin/python -m ivs_analyzer report " + dir), r.out());
        assertTrue(r.out().contains(" records/s, "), "the load line has a rate: " + r.out());
        List<String> monitor = Files.readAllLines(dir.resolve("monitor.csv"));
        assertTrue(monitor.size() > 1, "monitor rows");
        assertEquals("250", monitor.get(1).split(",")[1], "interval_ms from -im 250");
    }
}
