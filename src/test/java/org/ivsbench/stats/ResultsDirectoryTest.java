package org.ivsbench.stats;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The -d check: it proves by doing, leaves no probe behind, and undoes only what it made. */
class ResultsDirectoryTest {
    @TempDir
    Path tmp;

    private static List<Path> listing(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.toList();
        }
    }

    @Test
    void aMissingFolderIsCreatedEmpty() throws IOException {
        Path dir = tmp.resolve("a/b/c");
        ResultsDirectory.checkWritable(dir);
        assertTrue(Files.isDirectory(dir));
        assertEquals(List.of(), listing(dir), "the probe file was deleted");
    }

    @Test
    void anExistingFolderKeepsItsContent() throws IOException {
        Files.writeString(tmp.resolve("old.txt"), "kept");
        ResultsDirectory.checkWritable(tmp);
        assertEquals(List.of(tmp.resolve("old.txt")), listing(tmp));
    }

    @Test
    void aFileInTheWayIsNamedAndNothingIsMade() throws IOException {
        Path file = Files.writeString(tmp.resolve("f"), "x");
        IOException e =
                assertThrows(IOException.class, () -> ResultsDirectory.checkWritable(file.resolve("sub/deeper")));
        assertEquals(file.toAbsolutePath() + " is not a directory", e.getMessage());
        assertEquals(List.of(file), listing(tmp));
    }

    @Test
    void aFailureBelowNewFoldersRemovesExactlyThoseFolders() throws IOException {
        Files.createDirectory(tmp.resolve("existing"));
        Path dir = tmp.resolve("existing/new1/new2/" + "x".repeat(300));
        IOException e = assertThrows(IOException.class, () -> ResultsDirectory.checkWritable(dir));
        assertFalse(e.getMessage().contains("\n"), "one line: " + e.getMessage());
        assertEquals(List.of(tmp.resolve("existing")), listing(tmp), "the folder that was there stays");
        assertEquals(List.of(), listing(tmp.resolve("existing")), "new1 and new2 are gone");
    }

    /** A dangling symlink is "missing" to Files.exists; it must be reported, not followed or deleted. */
    @Test
    void aDanglingSymlinkIsNotTouched() throws IOException {
        Path link = Files.createSymbolicLink(tmp.resolve("link"), tmp.resolve("nowhere"));
        assertThrows(IOException.class, () -> ResultsDirectory.checkWritable(link.resolve("sub")));
        assertTrue(Files.isSymbolicLink(link));
        assertFalse(Files.exists(tmp.resolve("nowhere")));
    }

    /**
     * Shards started together share -d's parent: one may create the missing "results" between another's scan
     * and its create (stop 43's CI: "results: exists and is not a directory"). The folder is used, kept when
     * the probe fails later, and a file made there meanwhile is still an error.
     */
    @Test
    void aFolderAnotherProcessCreatesMeanwhileIsUsedAndNotRemoved() throws IOException {
        Path shared = tmp.resolve("results");
        Path mine = shared.resolve("shard-3");
        ResultsDirectory.checkWritable(mine, () -> mkdir(shared));
        assertTrue(Files.isDirectory(mine));
        assertEquals(List.of(mine), listing(shared));

        Path other = tmp.resolve("results2");
        Path tooLong = other.resolve("x".repeat(300));
        assertThrows(IOException.class, () -> ResultsDirectory.checkWritable(tooLong, () -> mkdir(other)));
        assertTrue(Files.isDirectory(other), "a folder this call did not make is never removed");

        Path file = tmp.resolve("results3");
        IOException e = assertThrows(
                IOException.class, () -> ResultsDirectory.checkWritable(file.resolve("shard-0"), () -> touch(file)));
        assertEquals(file + ": exists and is not a directory", e.getMessage());
        assertTrue(Files.isRegularFile(file), "the file is not ours either");
    }

    private static void mkdir(Path dir) {
        try {
            Files.createDirectory(dir);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void touch(Path file) {
        try {
            Files.writeString(file, "x");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
