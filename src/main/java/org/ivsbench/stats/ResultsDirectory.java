package org.ivsbench.stats;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

/**
 * Makes {@code <parent>/<benchmark>_<yyyy-MM-dd_HH-mm-ss>/} (with a -2, -3 ... suffix when two runs start in
 * the same second). {@link #checkWritable(Path)} proves the parent can be written before any database is
 * touched, so a bad -d fails early and leaves nothing behind.
 */
public final class ResultsDirectory {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd_HH-mm-ss");

    private ResultsDirectory() {
    }

    /** Throws IOException with a clear message if {@code parent} cannot hold a new results folder. */
    public static void checkWritable(Path parent) throws IOException {
        Path existing = parent.toAbsolutePath();
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing == null || !Files.isDirectory(existing)) {
            throw new IOException(parent + " is not a directory");
        }
        if (!Files.isWritable(existing)) {
            throw new IOException(existing + " is not writable");
        }
        if (Files.exists(parent)) {
            Path probe = Files.createTempFile(parent, ".ivsbench-probe", "");
            Files.delete(probe);
        }
    }

    public static Path create(Path parent, String benchmark) throws IOException {
        Files.createDirectories(parent);
        String base = benchmark + "_" + LocalDateTime.now().format(STAMP);
        Path dir = parent.resolve(base);
        for (int i = 2; ; i++) {
            try {
                return Files.createDirectory(dir);
            } catch (java.nio.file.FileAlreadyExistsException e) {
                dir = parent.resolve(base + "-" + i);
            }
        }
    }
}
