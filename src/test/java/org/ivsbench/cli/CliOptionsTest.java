package org.ivsbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Command-line errors: one line naming the option and the value, exit code 2, nothing written. */
class CliOptionsTest {
    @TempDir
    Path tmp;

    private static void assertUsage(CliHarness.Result r, String... fragments) {
        assertEquals(2, r.code(), "exit code; stderr: " + r.err());
        String err = r.err().strip();
        assertEquals(1, err.lines().count(), "exactly one line: " + err);
        for (String f : fragments) {
            assertTrue(err.contains(f), "'" + f + "' in: " + err);
        }
    }

    @Test
    void missingBenchmark() {
        assertUsage(CliHarness.run("-c", "x.xml", "--execute"), "-b", "ycsbivs");
    }

    @Test
    void unknownBenchmark() {
        assertUsage(CliHarness.run("-b", "tpcc", "-c", "x.xml", "--execute"), "-b", "'tpcc'", "ycsbivs");
    }

    @Test
    void missingConfigOption() {
        assertUsage(CliHarness.run("-b", "ycsbivs", "--execute"), "-c");
    }

    @Test
    void configFileDoesNotExist() {
        assertUsage(CliHarness.run("-b", "ycsbivs", "-c", tmp.resolve("nope.xml").toString(), "--execute"),
                "-c", "nope.xml", "does not exist");
    }

    @Test
    void configIsADirectory() {
        assertUsage(CliHarness.run("-b", "ycsbivs", "-c", tmp.toString(), "--execute"), "-c", "is a directory");
    }

    @Test
    void unknownOption() {
        assertUsage(CliHarness.run("-b", "ycsbivs", "--frobnicate"), "--frobnicate");
    }

    @Test
    void badBooleanValue() {
        assertUsage(CliHarness.run("-b", "ycsbivs", "-c", "x.xml", "--execute=maybe"), "--execute", "maybe");
    }

    @Test
    void badWindow() {
        Path cfg = sample();
        assertUsage(CliHarness.run("-b", "ycsbivs", "-c", cfg.toString(), "--execute", "-s", "0"), "-s", "'0'");
        assertUsage(CliHarness.run("-b", "ycsbivs", "-c", cfg.toString(), "--execute", "-s", "abc"), "-s", "abc");
    }

    @Test
    void nothingToDo() {
        assertUsage(CliHarness.run("-b", "ycsbivs", "-c", sample().toString()), "--execute");
    }

    @Test
    void unwritableResultsDirectoryFailsBeforeTheDatabaseIsTouched() throws Exception {
        Path db = tmp.resolve("never.db");
        Path cfg = sqliteConfig(db);
        Path file = tmp.resolve("a-file");
        Files.writeString(file, "x");
        CliHarness.Result r = CliHarness.run("-b", "ycsbivs", "-c", cfg.toString(), "--create", "--load", "--execute",
                "-d", file.resolve("sub").toString());
        assertUsage(r, "-d");
        assertFalse(Files.exists(db), "the database file was not created");
    }

    @Test
    void versionAndHelp() {
        CliHarness.Result v = CliHarness.run("--version");
        assertEquals(0, v.code());
        assertTrue(v.out().contains("ivsbench"));
        CliHarness.Result h = CliHarness.run("--help");
        assertEquals(0, h.code());
        assertTrue(h.out().contains("--execute") && h.out().contains("monitor-agent"));
    }

    private Path sample() {
        return Path.of("config/sqlite/ycsbivs_config.xml");
    }

    /** The SQLite sample with its database file moved to {@code db}. */
    Path sqliteConfig(Path db) throws Exception {
        String xml = Files.readString(sample());
        xml = xml.replaceAll("<url>[^<]*</url>", "<url>jdbc:sqlite:" + db.toAbsolutePath() + "</url>");
        Path cfg = tmp.resolve("cfg.xml");
        Files.writeString(cfg, xml);
        return cfg;
    }
}
