package org.ivsbench.stats;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Makes {@code <parent>/<benchmark>_<yyyy-MM-dd_HH-mm-ss>/} (with a -2, -3 ... suffix when two runs start in
 * the same second). {@link #checkWritable(Path)} proves the parent can be written before any database is
 * touched, so a bad -d fails early and leaves nothing behind (a good -d is created then, possibly empty if the
 * run later fails on the database).
 */
public final class ResultsDirectory {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd_HH-mm-ss");

    private ResultsDirectory() {}

    /**
     * Proves that {@code parent} can hold a new results folder by doing what a run will do: it creates the
     * folder (and any missing ancestors) and writes and deletes a probe file in it. Asking the file system
     * ({@code Files.isWritable}) is not enough: for root it answers yes almost everywhere, also on /proc, and a
     * missing folder can only be tested by creating it. On failure the folders this call created are removed
     * again, so a bad -d leaves nothing behind; on success the (empty) folder stays, because the run is about
     * to use it. The IOException's message is one line: the path that failed and why.
     */
    public static void checkWritable(Path parent) throws IOException {
        checkWritable(parent, () -> {});
    }

    /**
     * As {@link #checkWritable(Path)}; {@code afterScan} runs between finding the missing folders and creating
     * them, so a test can create one of them there, as another process (a shard started beside this one)
     * does.
     */
    static void checkWritable(Path parent, Runnable afterScan) throws IOException {
        Path target = parent.toAbsolutePath().normalize();
        // The missing folders, outermost first, so that exactly these (and never a folder that was there
        // before, nor what a dangling symlink points to) are removed if the probe fails.
        Deque<Path> missing = new ArrayDeque<>();
        Path existing = target;
        while (existing != null && !Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
            missing.push(existing);
            existing = existing.getParent();
        }
        if (existing != null && !Files.isDirectory(existing)) {
            throw new IOException(existing + " is not a directory");
        }
        afterScan.run();
        Deque<Path> created = new ArrayDeque<>();
        Path current = null;
        try {
            for (Path dir : missing) {
                current = dir;
                try {
                    Files.createDirectory(dir);
                    created.push(dir);
                } catch (FileAlreadyExistsException e) {
                    // Another process made it meanwhile (shards started together share -d's parent): use
                    // it, and never remove it, since it is not ours. A file there is still an error.
                    if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
                        throw e;
                    }
                }
            }
            current = target;
            Path probe = Files.createTempFile(target, ".ivsbench-probe", "");
            current = probe;
            Files.writeString(probe, "probe");
            Files.delete(probe);
        } catch (IOException e) {
            for (Path dir : created) {
                try {
                    Files.delete(dir);
                } catch (IOException ignored) {
                    // Best effort: the error below is what the user needs; an empty folder left behind
                    // (only possible if something else changed it meanwhile) is harmless.
                }
            }
            throw new IOException(describe(target, current, e), e);
        }
    }

    /**
     * One line: the reason, preceded by the path that failed when that is not -d itself (the caller names
     * -d). Needed because the JDK's messages for these exceptions are often the bare path.
     */
    private static String describe(Path target, Path path, IOException e) {
        String reason;
        if (e instanceof AccessDeniedException) {
            reason = "permission denied";
        } else if (e instanceof NoSuchFileException) {
            reason = "cannot be created here (no such file or directory)";
        } else if (e instanceof FileAlreadyExistsException) {
            reason = "exists and is not a directory";
        } else if (e instanceof FileSystemException fse && fse.getReason() != null) {
            reason = fse.getReason();
        } else {
            reason = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        }
        String p = e instanceof FileSystemException fse && fse.getFile() != null ? fse.getFile() : String.valueOf(path);
        String line = p.equals(target.toString()) ? reason : p + ": " + reason;
        return line.replace('\n', ' ');
    }

    public static Path create(Path parent, String benchmark) throws IOException {
        Files.createDirectories(parent);
        String base = benchmark + "_" + LocalDateTime.now().format(STAMP);
        Path dir = parent.resolve(base);
        for (int i = 2; ; i++) {
            try {
                return Files.createDirectory(dir);
            } catch (FileAlreadyExistsException e) {
                dir = parent.resolve(base + "-" + i);
            }
        }
    }
}
