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
 * PostgreSQL's own dump and restore (the experiment's clean/method = native): {@code pg_dump} of one table into
 * a plain SQL file, replayed with {@code psql} into a fresh database, on this target's server (the primary's,
 * or a fresh instance reached with the primary's credentials). Ownership and grants are left out (the fresh
 * database belongs to the connecting user). The password travels in the tools' environment (PGPASSWORD), never
 * on their command line.
 */
final class PostgresNativeSnapshot implements NativeSnapshot {
    private static final Pattern URL = Pattern.compile("jdbc:postgresql://([^/:?]+)(?::(\\d+))?/([^?]+).*");

    private final TargetConfig config;
    private final DatabaseAdmin server;

    PostgresNativeSnapshot(TargetConfig config, DatabaseAdmin server) {
        this.config = config;
        this.server = server;
    }

    @Override
    public long dump(String table, Path file) throws TargetException {
        Matcher m = url(config);
        long t0 = System.nanoTime();
        List<String> command = client("pg_dump", m, config);
        // Quoted, the pattern names exactly this table (unquoted it would be folded to lower case).
        command.addAll(List.of(
                "--no-owner",
                "--no-privileges",
                "--table=\"" + table + "\"",
                "--file=" + file,
                "--dbname=" + m.group(3)));
        run(command, config);
        return (System.nanoTime() - t0) / 1_000_000;
    }

    @Override
    public long restore(Path file, String freshName) throws TargetException {
        Matcher m = url(config);
        long t0 = System.nanoTime();
        server.createDatabase(freshName, true);
        List<String> command = client("psql", m, config);
        command.addAll(
                List.of("--no-psqlrc", "--quiet", "--set=ON_ERROR_STOP=1", "--file=" + file, "--dbname=" + freshName));
        run(command, config);
        return (System.nanoTime() - t0) / 1_000_000;
    }

    private static Matcher url(TargetConfig config) throws TargetException {
        Matcher m = URL.matcher(config.url());
        if (!m.matches()) {
            throw new TargetException(
                    "clean/method native needs a jdbc:postgresql://host:port/database url, got one it cannot read");
        }
        return m;
    }

    private static List<String> client(String tool, Matcher url, TargetConfig config) {
        List<String> c = new ArrayList<>(List.of(
                tool,
                "--no-password",
                "--host=" + url.group(1),
                "--port=" + (url.group(2) == null ? "5432" : url.group(2))));
        if (config.username() != null) {
            c.add("--username=" + config.username());
        }
        return c;
    }

    private static void run(List<String> command, TargetConfig config) throws TargetException {
        ProcessBuilder pb = new ProcessBuilder(command);
        if (config.password() != null) {
            pb.environment().put("PGPASSWORD", config.password());
        }
        Path err;
        try {
            err = Files.createTempFile("ivsbench-clean", ".err");
        } catch (IOException e) {
            throw new TargetException("clean/method native: " + e.getMessage(), e, false);
        }
        pb.redirectError(err.toFile());
        pb.redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
        try {
            Process p;
            try {
                p = pb.start();
            } catch (IOException e) {
                throw new TargetException(
                        "clean/method native: cannot run " + command.get(0) + " (install the PostgreSQL client tools): "
                                + e.getMessage(),
                        e,
                        false);
            }
            try {
                int code = p.waitFor();
                if (code != 0) {
                    String message =
                            Files.readString(err, StandardCharsets.UTF_8).strip();
                    throw new TargetException("clean/method native: " + command.get(0) + " exited " + code + ": "
                            + (message.length() > 300 ? message.substring(0, 300) : message));
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
                throw new TargetException("clean/method native: interrupted", e, false);
            }
        } catch (IOException e) {
            throw new TargetException("clean/method native: " + e.getMessage(), e, false);
        } finally {
            try {
                Files.deleteIfExists(err);
            } catch (IOException ignored) {
                // a stray empty temp file is all that is left
            }
        }
    }
}
