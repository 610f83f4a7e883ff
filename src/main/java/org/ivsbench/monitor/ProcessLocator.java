package org.ivsbench.monitor;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.LongPredicate;

/**
 * Finds the database server process: from a pid file, by the TCP port it listens on (the target URL's port:
 * the one server the benchmark really talks to, even with several of the same name on the host), by process
 * name (the {@code comm} of /proc/<pid>; the lowest pid), or not at all. Looked up again on every call
 * (cheap), so a restarted server is followed to its new pid.
 */
public final class ProcessLocator {
    private final Path procDir;
    private final Path pidFile;
    private final String processName;
    private final int port;
    private long cachedPid = -1;

    private ProcessLocator(Path procDir, Path pidFile, String processName, int port) {
        this.procDir = procDir;
        this.pidFile = pidFile;
        this.processName = processName;
        this.port = port;
    }

    public static ProcessLocator none() {
        return new ProcessLocator(Path.of("/proc"), null, null, 0);
    }

    public static ProcessLocator pidFile(Path pidFile) {
        return new ProcessLocator(Path.of("/proc"), pidFile, null, 0);
    }

    public static ProcessLocator processName(String name) {
        return new ProcessLocator(Path.of("/proc"), null, name, 0);
    }

    /**
     * The process listening on TCP {@code port} (IPv4 or IPv6); when none can be seen (not listening yet, or
     * another user's process whose fds are not readable), the lowest pid named {@code fallbackName}, if given.
     */
    public static ProcessLocator listeningOn(int port, String fallbackName) {
        return new ProcessLocator(Path.of("/proc"), null, fallbackName, port);
    }

    /** A fixed pid (e.g. this JVM in tests). */
    public static ProcessLocator pid(long pid) {
        ProcessLocator l = new ProcessLocator(Path.of("/proc"), null, null, 0);
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
        ProcessLocator l = new ProcessLocator(procDir, pidFile, processName, port);
        l.cachedPid = cachedPid;
        return l;
    }

    public synchronized OptionalLong locate() {
        if (pidFile != null) {
            try {
                // The first line: PostgreSQL's postmaster.pid holds the pid there and more lines after it.
                String text = Files.readString(pidFile, StandardCharsets.US_ASCII)
                        .strip()
                        .lines()
                        .findFirst()
                        .orElse("")
                        .strip();
                return text.isEmpty() ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(text));
            } catch (IOException | NumberFormatException e) {
                return OptionalLong.empty();
            }
        }
        if (port > 0) {
            Set<String> sockets = listeningSockets();
            if (!sockets.isEmpty()) {
                if (cachedPid <= 0 || !holdsAny(cachedPid, sockets)) {
                    cachedPid = scan(pid -> holdsAny(pid, sockets));
                }
                if (cachedPid > 0) {
                    return OptionalLong.of(cachedPid);
                }
            }
        }
        if (processName == null) {
            return cachedPid > 0 && port == 0 ? OptionalLong.of(cachedPid) : OptionalLong.empty();
        }
        if (cachedPid > 0 && processName.equals(comm(cachedPid))) {
            return OptionalLong.of(cachedPid);
        }
        cachedPid = scan(pid -> processName.equals(comm(pid)));
        return cachedPid > 0 ? OptionalLong.of(cachedPid) : OptionalLong.empty();
    }

    /** "socket:[inode]" link texts of the TCP sockets in state LISTEN on {@code port} (net/tcp and net/tcp6). */
    private Set<String> listeningSockets() {
        Set<String> links = new HashSet<>();
        for (String table : new String[] {"tcp", "tcp6"}) {
            List<String> lines;
            try {
                lines = Files.readAllLines(procDir.resolve("net").resolve(table), StandardCharsets.US_ASCII);
            } catch (IOException e) {
                continue;
            }
            for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
                // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode ...
                String[] f = line.trim().split("\\s+");
                if (f.length < 10 || !f[3].equals("0A")) {
                    continue;
                }
                int colon = f[1].lastIndexOf(':');
                try {
                    if (colon > 0 && Integer.parseInt(f[1].substring(colon + 1), 16) == port && !f[9].equals("0")) {
                        links.add("socket:[" + f[9] + "]");
                    }
                } catch (NumberFormatException ignored) {
                    // a line of another shape: not ours
                }
            }
        }
        return links;
    }

    /** True when one of the process's open files is one of the sockets. */
    private boolean holdsAny(long pid, Set<String> sockets) {
        try (DirectoryStream<Path> fds =
                Files.newDirectoryStream(procDir.resolve(Long.toString(pid)).resolve("fd"))) {
            for (Path fd : fds) {
                try {
                    if (sockets.contains(Files.readSymbolicLink(fd).toString())) {
                        return true;
                    }
                } catch (IOException | UnsupportedOperationException e) {
                    // closed meanwhile, or not a link
                }
            }
        } catch (IOException e) {
            return false; // gone, or not ours to read
        }
        return false;
    }

    /** The lowest pid that matches: the server's main process rather than a helper started later. */
    private long scan(LongPredicate matches) {
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
                if ((best < 0 || pid < best) && matches.test(pid)) {
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
            return Files.readString(procDir.resolve(Long.toString(pid)).resolve("comm"), StandardCharsets.UTF_8)
                    .trim();
        } catch (IOException e) {
            return null; // gone, or not ours to read
        }
    }
}
