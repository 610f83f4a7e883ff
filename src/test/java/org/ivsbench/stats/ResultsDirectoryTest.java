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
}
