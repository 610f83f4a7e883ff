package org.ivsbench.db.jdbc;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.ivsbench.config.TargetConfig;
import org.ivsbench.db.DatabaseAdmin;
import org.ivsbench.db.NativeSnapshot;
import org.ivsbench.db.TargetException;

/**
 * A copy with the server's own tools (the experiment's clean/method = native): {@code mariadb-dump} of a table
 * into a file, later {@code mariadb} replaying it into a fresh database — the paper's dump-and-restore, on
 * this target's server (the primary's, or a fresh instance reached with the primary's credentials). The
 * password travels in the tools' environment (MYSQL_PWD), never on their command line, so it does not show in
 * the process list.
 */
final class MariaDbNativeSnapshot implements NativeSnapshot {
    private static final Pattern URL = Pattern.compile("jdbc:(?:mariadb|mysql)://([^/:?]+)(?::(\\d+))?/([^?]+).*");

    private final TargetConfig config;
    private final DatabaseAdmin server;

    MariaDbNativeSnapshot(TargetConfig config, DatabaseAdmin server) {
        this.config = config;
        this.server = server;
    }

    /** mariadb-dump of the table into {@code file}; returns the milliseconds it took. */
    @Override
    public long dump(String table, Path file) throws TargetException {
        Matcher m = url(config);
        String port = m.group(2) == null ? "3306" : m.group(2);
        long t0 = System.nanoTime();
        List<String> dumpCommand = client("mariadb-dump", m.group(1), port, config);
        dumpCommand.addAll(List.of("--single-transaction", "--no-tablespaces", "--skip-comments", m.group(3), table));
        try {
            run(dumpCommand, config, null, file);
        } catch (IOException e) {
            throw new TargetException("clean/method native: " + e.getMessage(), e, false);
        }
        return (System.nanoTime() - t0) / 1_000_000;
    }

    /** Replays a {@link #dump} into a new (dropped first) database {@code freshName}; returns the milliseconds. */
    @Override
    public long restore(Path file, String freshName) throws TargetException {
        Matcher to = url(config);
        String toPort = to.group(2) == null ? "3306" : to.group(2);
        long t0 = System.nanoTime();
        server.createDatabase(freshName, true);
        List<String> restoreCommand = client("mariadb", to.group(1), toPort, config);
        restoreCommand.add(freshName);
        try {
            run(restoreCommand, config, file, null);
        } catch (IOException e) {
            throw new TargetException("clean/method native: " + e.getMessage(), e, false);
        }
        return (System.nanoTime() - t0) / 1_000_000;
    }

    private static Matcher url(TargetConfig config) throws TargetException {
        Matcher m = URL.matcher(config.url());
        if (!m.matches()) {
            throw new TargetException(
                    "clean/method native needs a jdbc:mariadb://host:port/database url, got one" + " it cannot read");
        }
        return m;
    }

    private static List<String> client(String tool, String host, String port, TargetConfig config) {
        List<String> c =
                new ArrayList<>(List.of(tool, "--no-defaults", "--protocol=TCP", "--host=" + host, "--port=" + port));
        if (config.username() != null) {
            c.add("--user=" + config.username());
        }
        return c;
    }

    private static void run(List<String> command, TargetConfig config, Path stdin, Path stdout)
            throws IOException, TargetException {
        ProcessBuilder pb = new ProcessBuilder(command);
        if (config.password() != null) {
            pb.environment().put("MYSQL_PWD", config.password());
        }
        Path err = Files.createTempFile("ivsbench-clean", ".err");
        pb.redirectError(err.toFile());
        pb.redirectInput(
                stdin == null ? ProcessBuilder.Redirect.INHERIT : ProcessBuilder.Redirect.from(stdin.toFile()));
        pb.redirectOutput(
                stdout == null ? ProcessBuilder.Redirect.DISCARD : ProcessBuilder.Redirect.to(stdout.toFile()));
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            Files.deleteIfExists(err);
            throw new TargetException(
                    "clean/method native: cannot run " + command.get(0) + " (install the MariaDB client tools): "
                            + e.getMessage(),
                    e,
                    false);
        }
        try {
            int code = p.waitFor();
            if (code != 0) {
                String message = Files.readString(err, StandardCharsets.UTF_8).strip();
                throw new TargetException("clean/method native: " + command.get(0) + " exited " + code + ": "
                        + (message.length() > 300 ? message.substring(0, 300) : message));
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new TargetException("clean/method native: interrupted", e, false);
        } finally {
            Files.deleteIfExists(err);
        }
    }
}
