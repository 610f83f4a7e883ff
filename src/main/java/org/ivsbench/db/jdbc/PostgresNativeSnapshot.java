package org.ivsbench.db.jdbc;

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
    private static final String SCHEME = "jdbc:postgresql";
    private static final Pattern URL = Pattern.compile(SCHEME + "://([^/:?]+)(?::(\\d+))?/([^?]+).*");

    private final TargetConfig config;
    private final DatabaseAdmin server;

    PostgresNativeSnapshot(TargetConfig config, DatabaseAdmin server) {
        this.config = config;
        this.server = server;
    }

    @Override
    public long dump(String table, Path file) throws TargetException {
        Matcher m = NativeTool.url(URL, config, SCHEME);
        long t0 = System.nanoTime();
        List<String> command = client("pg_dump", m, config);
        // Quoted, the pattern names exactly this table (unquoted it would be folded to lower case).
        command.addAll(List.of(
                "--no-owner",
                "--no-privileges",
                "--table=\"" + table + "\"",
                "--file=" + file,
                "--dbname=" + m.group(3)));
        run(command);
        return NativeTool.millisSince(t0);
    }

    @Override
    public long restore(Path file, String freshName) throws TargetException {
        Matcher m = NativeTool.url(URL, config, SCHEME);
        long t0 = System.nanoTime();
        server.createDatabase(freshName, true);
        List<String> command = client("psql", m, config);
        command.addAll(
                List.of("--no-psqlrc", "--quiet", "--set=ON_ERROR_STOP=1", "--file=" + file, "--dbname=" + freshName));
        run(command);
        return NativeTool.millisSince(t0);
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

    private void run(List<String> command) throws TargetException {
        NativeTool.run(
                command,
                config,
                "PGPASSWORD",
                "PostgreSQL",
                ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()),
                ProcessBuilder.Redirect.DISCARD);
    }
}
