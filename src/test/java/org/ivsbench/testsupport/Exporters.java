package org.ivsbench.testsupport;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Prometheus node exporter and mysqld exporter (Debian's prometheus-node-exporter and
 * prometheus-mysqld-exporter, or node_exporter / mysqld_exporter on PATH), started on free loopback ports for one
 * test and registered with the private Prometheus through a file_sd file (jobs {@code node} and {@code mysqld});
 * {@link #close()} removes the file and stops both.
 */
public final class Exporters implements AutoCloseable {
    private static final Pattern JDBC_HOST_PORT = Pattern.compile("^jdbc:mariadb://([^:/]+):(\\d+)/.*");
    private static final long READY_MILLIS = 30_000;

    private final List<Process> processes = new ArrayList<>();
    private final Path sdFile;
    private final String node;
    private final String mysqld;

    /** Which exporter binaries are missing from PATH (empty: both there), in words for a test's message. */
    public static Optional<String> missingBinaries() {
        List<String> missing = new ArrayList<>();
        if (binary("prometheus-node-exporter", "node_exporter").isEmpty()) {
            missing.add("the node exporter (prometheus-node-exporter)");
        }
        if (binary("prometheus-mysqld-exporter", "mysqld_exporter").isEmpty()) {
            missing.add("the mysqld exporter (prometheus-mysqld-exporter)");
        }
        return missing.isEmpty()
                ? Optional.empty()
                : Optional.of(String.join(" and ", missing) + " not on PATH (as root: apt-get install "
                        + "prometheus-node-exporter prometheus-mysqld-exporter)");
    }

    /**
     * Starts both exporters (the mysqld one reading the private MariaDB at {@code mariadbJdbcUrl} as {@code user})
     * with their state in {@code dir}, waits until each serves /metrics, and writes {@code sdDir/<name>.json}.
     */
    public Exporters(Path dir, Path sdDir, String name, String mariadbJdbcUrl, String user, String password)
            throws IOException, InterruptedException {
        try {
            sdFile = sdDir.resolve(name + ".json");
            node = "127.0.0.1:" + freePort();
            mysqld = "127.0.0.1:" + freePort();
            startAll(dir, sdDir, name, mariadbJdbcUrl, user, password);
        } catch (IOException | InterruptedException | RuntimeException e) {
            close();
            throw e;
        }
    }

    private void startAll(Path dir, Path sdDir, String name, String mariadbJdbcUrl, String user, String password)
            throws IOException, InterruptedException {
        Matcher m = JDBC_HOST_PORT.matcher(mariadbJdbcUrl);
        if (!m.matches()) {
            throw new IllegalArgumentException("not a jdbc:mariadb://HOST:PORT/DB URL: " + mariadbJdbcUrl);
        }
        // A my.cnf works with every mysqld exporter version (0.15 dropped DATA_SOURCE_NAME).
        Path cnf = dir.resolve("exporter-my.cnf");
        Files.writeString(
                cnf,
                "[client]\nuser=" + user + "\npassword=" + password + "\nhost=" + m.group(1) + "\nport=" + m.group(2)
                        + "\n");
        start(
                dir.resolve("node-exporter.log"),
                binary("prometheus-node-exporter", "node_exporter").orElseThrow(),
                "--web.listen-address=" + node,
                "--collector.disable-defaults",
                "--collector.cpu",
                "--collector.diskstats");
        start(
                dir.resolve("mysqld-exporter.log"),
                binary("prometheus-mysqld-exporter", "mysqld_exporter").orElseThrow(),
                "--web.listen-address=" + mysqld,
                "--config.my-cnf=" + cnf);
        awaitMetrics(node, dir.resolve("node-exporter.log"));
        awaitMetrics(mysqld, dir.resolve("mysqld-exporter.log"));
        Files.createDirectories(sdDir);
        Path tmp = sdDir.resolve("." + name + ".json.tmp");
        Files.writeString(
                tmp,
                "[{\"targets\":[\"" + node + "\"],\"labels\":{\"job\":\"node\"}}," + "{\"targets\":[\"" + mysqld
                        + "\"],\"labels\":{\"job\":\"mysqld\"}}]\n");
        Files.move(tmp, sdFile, StandardCopyOption.ATOMIC_MOVE);
    }

    /** The node exporter's scrape target, HOST:PORT (its {@code instance} label). */
    public String node() {
        return node;
    }

    /** The mysqld exporter's scrape target, HOST:PORT. */
    public String mysqld() {
        return mysqld;
    }

    private void start(Path log, String... command) throws IOException {
        processes.add(new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start());
    }

    private void awaitMetrics(String hostPort, Path log) throws IOException, InterruptedException {
        HttpClient http = HttpClient.newHttpClient();
        HttpRequest get = HttpRequest.newBuilder(URI.create("http://" + hostPort + "/metrics"))
                .build();
        long deadline = System.currentTimeMillis() + READY_MILLIS;
        while (true) {
            try {
                if (http.send(get, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            if (processes.stream().anyMatch(p -> !p.isAlive()) || System.currentTimeMillis() > deadline) {
                throw new IllegalStateException(
                        "exporter on " + hostPort + " did not serve /metrics; its log:\n" + Files.readString(log));
            }
            Thread.sleep(100);
        }
    }

    @Override
    public void close() {
        try {
            Files.deleteIfExists(sdFile);
        } catch (IOException e) {
            throw new IllegalStateException("could not remove " + sdFile, e);
        } finally {
            for (Process p : processes) {
                p.destroy();
            }
            for (Process p : processes) {
                try {
                    p.waitFor();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    private static Optional<String> binary(String... names) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            for (String name : names) {
                Path p = Path.of(dir.isEmpty() ? "." : dir, name);
                if (Files.isExecutable(p)) {
                    return Optional.of(p.toString());
                }
            }
        }
        return Optional.empty();
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
