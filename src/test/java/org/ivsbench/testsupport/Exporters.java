package org.ivsbench.testsupport;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The suite's node and mysqld exporters (scripts/exporters.sh, started by scripts/test.sh beside the private
 * MariaDB; {@link TestServers#exporterUrl}) registered with the private Prometheus for one test through a file_sd
 * file (jobs {@code node} and {@code mysqld}). {@link #close()} removes the file: Prometheus scrapes them, and the
 * mysqld exporter queries the server, only meanwhile.
 */
public final class Exporters implements AutoCloseable {
    private final Path sdFile;
    private final String node;
    private final String mysqld;

    /** Registers both exporters as {@code sdDir/<name>.json}; fails (or skips) as TestServers does when missing. */
    public Exporters(Path sdDir, String name) throws IOException {
        node = hostPort(TestServers.exporterUrl("node"));
        mysqld = hostPort(TestServers.exporterUrl("mysqld"));
        sdFile = sdDir.resolve(name + ".json");
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

    private static String hostPort(String metricsUrl) {
        URI u = URI.create(metricsUrl);
        return u.getHost() + ":" + u.getPort();
    }

    @Override
    public void close() throws IOException {
        Files.deleteIfExists(sdFile);
    }
}
