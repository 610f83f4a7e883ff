package org.ivsbench.monitor;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

/**
 * Finds the database server process: from a pid file, by process name (the {@code comm} of /proc/<pid>), or
 * not at all. Looked up again on every call (cheap), so a restarted server is followed to its new pid.
 */
public final class ProcessLocator {
    private final Path procDir;
    private final Path pidFile;
    private final String processName;
    private long cachedPid = -1;

    private ProcessLocator(Path procDir, Path pidFile, String processName) {
        this.procDir = procDir;
        this.pidFile = pidFile;
        this.processName = processName;
    }

    public static ProcessLocator none() {
        return new ProcessLocator(Path.of("/proc"), null, null);
    }

    public static ProcessLocator pidFile(Path pidFile) {
        return new ProcessLocator(Path.of("/proc"), pidFile, null);
    }

    public static ProcessLocator processName(String name) {
        return new ProcessLocator(Path.of("/proc"), null, name);
    }

    /** A fixed pid (e.g. this JVM in tests). */
    public static ProcessLocator pid(long pid) {
        ProcessLocator l = new ProcessLocator(Path.of("/proc"), null, null);
        l.cachedPid = pid;
        return l;
    }

    /** The pid file wins over the name; both null means no process. */
    public static ProcessLocator of(String pidFile, String processName) {
        if (pidFile != null && !pidFile.isBlank()) {
            return pidFile(Path.of(pidFile));
        }
        if (processName != null && !processName.isBlank()) {
            return processName(processName);
        }
        return none();
    }

    /** The same lookup against another /proc tree (fixtures). */
    public ProcessLocator withProcDir(Path procDir) {
        ProcessLocator l = new ProcessLocator(procDir, pidFile, processName);
        l.cachedPid = cachedPid;
        return l;
    }

    public synchronized OptionalLong locate() {
        if (pidFile != null) {
            try {
                String text = Files.readString(pidFile, StandardCharsets.US_ASCII).trim();
                return text.isEmpty() ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(text));
            } catch (IOException | NumberFormatException e) {
                return OptionalLong.empty();
            }
        }
        if (processName == null) {
            return cachedPid > 0 ? OptionalLong.of(cachedPid) : OptionalLong.empty();
        }
        if (cachedPid > 0 && processName.equals(comm(cachedPid))) {
            return OptionalLong.of(cachedPid);
        }
        cachedPid = scan();
        return cachedPid > 0 ? OptionalLong.of(cachedPid) : OptionalLong.empty();
    }

    /** The lowest pid whose comm is the name: the server's main process rather than a helper started later. */
    private long scan() {
        long best = -1;
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(procDir)) {
            for (Path dir : dirs) {
                String name = dir.getFileName().toString();
                if (name.isEmpty() || !Character.isDigit(name.charAt(0))) {
                    continue;
                }
                long pid;
                try {
                    pid = Long.parseLong(name);
                } catch (NumberFormatException e) {
                    continue;
                }
                if ((best < 0 || pid < best) && processName.equals(comm(pid))) {
                    best = pid;
                }
            }
        } catch (IOException e) {
            return -1;
        }
        return best;
    }

    private String comm(long pid) {
        try {
            return Files.readString(procDir.resolve(Long.toString(pid)).resolve("comm"), StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            return null; // gone, or not ours to read
        }
    }
}
