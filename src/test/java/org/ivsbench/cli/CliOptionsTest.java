package org.ivsbench.cli;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

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
        assertUsage(
                CliHarness.run("-b", "ycsbivs", "-c", tmp.resolve("nope.xml").toString(), "--execute"),
                "-c",
                "nope.xml",
                "does not exist");
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
        Path cfg = sqliteConfig(sample(), db);
        Path file = tmp.resolve("a-file");
        Files.writeString(file, "x");
        String dir = file.resolve("sub").toString();
        CliHarness.Result r =
                CliHarness.run("-b", "ycsbivs", "-c", cfg.toString(), "--create", "--load", "--execute", "-d", dir);
        assertUsage(r, "-d " + dir, "is not a directory");
        assertFalse(Files.exists(db), "the database file was not created");
        assertEquals("x", Files.readString(file), "the file in the way is unchanged");
    }

    /**
     * The bypass this guards against: for root, /proc looks writable to Files.isWritable, so a check that only
     * asked the nearest existing folder let --create and --load run and failed afterwards with exit 1.
     */
    @Test
    void resultsDirectoryThatCannotBeCreatedFailsBeforeTheDatabaseIsTouched() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self")), "needs Linux /proc");
        Path db = tmp.resolve("never.db");
        CliHarness.Result r = CliHarness.run(
                "-b",
                "ycsbivs",
                "-c",
                sqliteConfig(sample(), db).toString(),
                "--create",
                "--load",
                "--execute",
                "-d",
                "/proc/x");
        assertUsage(r, "-d /proc/x");
        assertFalse(Files.exists(db), "the database file was not created");
        assertFalse(Files.exists(Path.of("/proc/x")));
    }

    @Test
    void experimentWithAResultsDirectoryThatCannotBeCreatedFailsBeforeTheDatabaseIsTouched() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self")), "needs Linux /proc");
        Path db = tmp.resolve("never.db");
        Path cfg = sqliteConfig(Path.of("config/experiments/ycsbivs_sqlite_lightweight_uniform.xml"), db);
        assertTrue(Files.readString(cfg).contains("<experiment>"), "the config is an experiment");
        CliHarness.Result r = CliHarness.run(
                "-b", "ycsbivs", "-c", cfg.toString(), "--create", "--load", "--execute", "-d", "/proc/x/results");
        assertUsage(r, "-d /proc/x/results");
        assertFalse(Files.exists(db), "the database file was not created");
    }

    /** A -d that fails below folders the check made itself: those folders are removed again. */
    @Test
    void foldersMadeForAFailedResultsDirectoryAreRemoved() throws Exception {
        Path db = tmp.resolve("never.db");
        Path made = tmp.resolve("made");
        // One name longer than any Linux/macOS file system allows: "made" can be created, this cannot.
        String dir = made.resolve("x".repeat(300)).toString();
        CliHarness.Result r = CliHarness.run(
                "-b", "ycsbivs", "-c", sqliteConfig(sample(), db).toString(), "--create", "--execute", "-d", dir);
        assertUsage(r, "-d " + dir);
        assertFalse(Files.exists(made), "the folder made by the check was removed");
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

    /** {@code config} (a SQLite config) with its database file moved to {@code db}. */
    Path sqliteConfig(Path config, Path db) throws Exception {
        String xml = Files.readString(config);
        assertTrue(xml.contains("jdbc:sqlite:"), config + " is a SQLite config");
        xml = xml.replaceAll("<url>[^<]*</url>", "<url>jdbc:sqlite:" + db.toAbsolutePath() + "</url>");
        Path cfg = tmp.resolve("cfg.xml");
        Files.writeString(cfg, xml);
        return cfg;
    }
}
