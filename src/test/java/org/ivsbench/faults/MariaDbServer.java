package org.ivsbench.faults;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.ivsbench.testsupport.TestServers;

/**
 * Crashes and restarts the private MariaDB of the tests (scripts/mariadb.sh, exported by scripts/test.sh as
 * IVS_MARIADB_DEFAULTS / IVS_MARIADB_PIDFILE). The state folder is the one holding the defaults file, so a
 * restart runs the same server (same datadir and port) and crash recovery.
 */
public final class MariaDbServer {
    private final Path defaultsFile;
    private final Path pidFile;

    private MariaDbServer(Path defaultsFile, Path pidFile) {
        this.defaultsFile = defaultsFile;
        this.pidFile = pidFile;
    }

    /** The private server, or a failure that says how to provide it. */
    public static MariaDbServer fromEnvironment() {
        TestServers.mariadbUrl(); // fails (or skips) with instructions when no server is configured
        String defaults = System.getenv("IVS_MARIADB_DEFAULTS");
        String pid = System.getenv("IVS_MARIADB_PIDFILE");
        if (defaults == null || pid == null) {
            TestServers.missing("IVS_MARIADB_DEFAULTS / IVS_MARIADB_PIDFILE are not set: run the tests with"
                    + " scripts/test.sh, or eval \"$(scripts/mariadb.sh env)\" first");
        }
        return new MariaDbServer(Path.of(defaults), Path.of(pid));
    }

    public Path stateDir() {
        return defaultsFile.getParent();
    }

    /** SIGKILL to the server (no shutdown, no flush): what a crash or an OOM kill does. Waits until it is gone. */
    public void kill9() throws Exception {
        long pid = Long.parseLong(
                Files.readString(pidFile, StandardCharsets.US_ASCII).trim());
        ProcessHandle server = ProcessHandle.of(pid).orElseThrow(() -> new IllegalStateException("no process " + pid));
        // A recycled pid must not be mistaken for the server.
        String cmdline = Files.readString(Path.of("/proc", Long.toString(pid), "cmdline"), StandardCharsets.UTF_8);
        if (!cmdline.contains(defaultsFile.toString())) {
            throw new IllegalStateException("pid " + pid + " is not our mariadbd: " + cmdline.replace('\0', ' '));
        }
        server.destroyForcibly(); // SIGKILL
        server.onExit().get(10, TimeUnit.SECONDS);
    }

    /** Starts the server if it is not running (idempotent); crash recovery runs on start. */
    public void start() throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder("scripts/mariadb.sh", "start").redirectErrorStream(true);
        pb.environment().put("IVS_STATE_DIR", stateDir().toString());
        pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
        Process p = pb.start();
        if (!p.waitFor(90, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IllegalStateException("scripts/mariadb.sh start failed (state " + stateDir() + ")");
        }
    }

    /** Runs SQL as the server's root user through the mariadb client (for what the test user may not do). */
    public String rootSql(String sql) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(
                        List.of("mariadb", "--defaults-file=" + defaultsFile, "-uroot", "-N", "-B", "-e", sql))
                .redirectErrorStream(true);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("mariadb -e failed: " + out);
        }
        return out;
    }
}
