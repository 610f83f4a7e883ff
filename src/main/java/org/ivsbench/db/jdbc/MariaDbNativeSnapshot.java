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
        Matcher m = NativeTool.url(URL, config, "jdbc:mariadb");
        String port = m.group(2) == null ? "3306" : m.group(2);
        long t0 = System.nanoTime();
        List<String> dumpCommand = client("mariadb-dump", m.group(1), port, config);
        dumpCommand.addAll(List.of("--single-transaction", "--no-tablespaces", "--skip-comments", m.group(3), table));
        run(dumpCommand, ProcessBuilder.Redirect.INHERIT, ProcessBuilder.Redirect.to(file.toFile()));
        return NativeTool.millisSince(t0);
    }

    /** Replays a {@link #dump} into a new (dropped first) database {@code freshName}; returns the milliseconds. */
    @Override
    public long restore(Path file, String freshName) throws TargetException {
        Matcher to = NativeTool.url(URL, config, "jdbc:mariadb");
        String toPort = to.group(2) == null ? "3306" : to.group(2);
        long t0 = System.nanoTime();
        server.createDatabase(freshName, true);
        List<String> restoreCommand = client("mariadb", to.group(1), toPort, config);
        restoreCommand.add(freshName);
        run(restoreCommand, ProcessBuilder.Redirect.from(file.toFile()), ProcessBuilder.Redirect.DISCARD);
        return NativeTool.millisSince(t0);
    }

    private static List<String> client(String tool, String host, String port, TargetConfig config) {
        List<String> c =
                new ArrayList<>(List.of(tool, "--no-defaults", "--protocol=TCP", "--host=" + host, "--port=" + port));
        if (config.username() != null) {
            c.add("--user=" + config.username());
        }
        return c;
    }

    private void run(List<String> command, ProcessBuilder.Redirect stdin, ProcessBuilder.Redirect stdout)
            throws TargetException {
        NativeTool.run(command, config, "MYSQL_PWD", "MariaDB", stdin, stdout);
    }
}
