package org.ivsbench.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Lets a test prove that a run touched no database. {@link #copy(Path)} writes a config into an empty folder
 * with every relative SQLite path moved into that folder and every {@code 127.0.0.1:PORT} replaced by a
 * socket of this watch that counts and closes each connection (so a client that does connect fails at once
 * instead of waiting for a server greeting). Any other address in the config fails the copy: a run could
 * reach it unseen, and some of the corpus's addresses (127.0.0.1:3306) are real servers on a developer's
 * machine. {@link #touched()} then lists every file that appeared besides the copies and every connection.
 */
final class DatabaseWatch implements AutoCloseable {
    private static final Pattern SQLITE = Pattern.compile("jdbc:sqlite:([^<>\"'\\s?]*)");
    private static final Pattern LOOPBACK = Pattern.compile("127\\.0\\.0\\.1:(\\d+)");
    /** The authority of any {@code scheme://} address, including http (a DTD fetch is a connection too). */
    private static final Pattern AUTHORITY =
            Pattern.compile("[A-Za-z][A-Za-z0-9+.-]*://(?:[^/@<>\"'\\s]*@)?([^/<>\"'\\s?]+)");

    private final Path dir;
    private final List<Path> copies = new ArrayList<>();
    private final Map<String, Trap> traps = new LinkedHashMap<>();

    DatabaseWatch(Path emptyDir) {
        this.dir = emptyDir.toAbsolutePath();
    }

    /** Whether {@code 127.0.0.1:PORT} names a port no socket can have (above 65535). */
    private static boolean unreachable(String hostPort) {
        Matcher m = LOOPBACK.matcher(hostPort);
        return m.matches() && m.group(1).length() <= 9 && Integer.parseInt(m.group(1)) > 65535;
    }

    /** Writes the watched copy of {@code config} (same file name, so messages quoting it still match). */
    Path copy(Path config) throws IOException {
        String xml = Files.readString(config);
        xml = SQLITE.matcher(xml)
                .replaceAll(m -> Matcher.quoteReplacement("jdbc:sqlite:" + sqlitePath(config, m.group(1))));
        // A port above 65535 cannot be connected to: such an address (a config that must be refused for it) stays.
        xml = LOOPBACK.matcher(xml)
                .replaceAll(m -> unreachable(m.group())
                        ? m.group()
                        : "127.0.0.1:" + trap(m.group()).port());
        Matcher a = AUTHORITY.matcher(xml);
        while (a.find()) {
            for (String host : a.group(1).split(",")) {
                if (!unreachable(host)
                        && traps.values().stream().noneMatch(t -> host.equals("127.0.0.1:" + t.port()))) {
                    throw new AssertionError(config + ": the address '" + host + "' in " + a.group()
                            + " cannot be watched; use 127.0.0.1 with an explicit port");
                }
            }
        }
        Path copy = dir.resolve(config.getFileName());
        Files.writeString(copy, xml);
        copies.add(copy);
        return copy;
    }

    private String sqlitePath(Path config, String path) {
        Path p = Path.of(path);
        if (path.isEmpty() || path.startsWith(":") || path.startsWith("file:") || p.isAbsolute()) {
            throw new AssertionError(
                    config + ": the SQLite url 'jdbc:sqlite:" + path + "' cannot be watched; use a relative file name");
        }
        return dir.resolve(p).toString();
    }

    private Trap trap(String original) {
        return traps.computeIfAbsent(original, o -> {
            try {
                return new Trap(o);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /** What the run touched: files besides the copies, connections; empty when nothing. */
    List<String> touched() throws IOException {
        List<String> found = new ArrayList<>();
        try (Stream<Path> s = Files.walk(dir)) {
            s.filter(p -> !p.equals(dir) && !copies.contains(p)).forEach(p -> found.add("file " + p));
        }
        for (Trap t : traps.values()) {
            if (t.connections.get() > 0) {
                found.add(t.connections.get() + " connection(s) to " + t.original + " (watched on port " + t.port()
                        + ")");
            }
        }
        return found;
    }

    static List<Path> listing(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.toList();
        }
    }

    @Override
    public void close() throws IOException {
        for (Trap t : traps.values()) {
            t.socket.close();
        }
    }

    private static final class Trap {
        final String original;
        final ServerSocket socket;
        final AtomicInteger connections = new AtomicInteger();

        Trap(String original) throws IOException {
            this.original = original;
            this.socket = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
            Thread t = new Thread(this::acceptAll, "database-watch-" + original);
            t.setDaemon(true);
            t.start();
        }

        int port() {
            return socket.getLocalPort();
        }

        private void acceptAll() {
            while (!socket.isClosed()) {
                // Counted before the close, and the client only sees the close after it: when a run that
                // connected has ended, its connection is counted.
                try (Socket s = socket.accept()) {
                    connections.incrementAndGet();
                } catch (IOException e) {
                    return;
                }
            }
        }
    }
}
