package org.ivsbench.faults;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.ivsbench.testsupport.TestServers;

/**
 * Crashes and restarts a private MariaDB of the tests (scripts/mariadb.sh): the suite's shared one (exported by
 * scripts/test.sh as IVS_MARIADB_DEFAULTS / IVS_MARIADB_PIDFILE), or an instance of a test's own
 * ({@link #ownInstance}). The state folder is the one holding the defaults file, so a restart runs the same server
 * (same datadir and port) and crash recovery.
 */
public final class MariaDbServer implements AutoCloseable {
    /** The first port an own instance tries: below Linux's ephemeral range, as scripts/postgres.sh explains. */
    private static final int OWN_BASE_PORT = 23406;

    private final Path defaultsFile;
    private final Path pidFile;
    private final String url;
    private final boolean own;

    private MariaDbServer(Path defaultsFile, Path pidFile, String url, boolean own) {
        this.defaultsFile = defaultsFile;
        this.pidFile = pidFile;
        this.url = url;
        this.own = own;
    }

    /**
     * A MariaDB of the caller's own, in a new state folder and on a port of its own, started now by scripts/mariadb.sh
     * (the suite's server must be configured: its user and password are the script's too). {@link #close} stops it
     * and deletes its folder. Killing it touches no other test's server.
     */
    public static MariaDbServer ownInstance(String name) throws IOException, InterruptedException {
        TestServers.mariadbUrl(); // fails (or skips) with instructions when the servers are not installed and started
        Path state = ServerScript.ownStateDir(name);
        ServerScript script = script(state, Map.of("IVS_MARIADB_BASE_PORT", Integer.toString(OWN_BASE_PORT)));
        Map<String, String> vars =
                script.startOwn(state, 120, "IVS_MARIADB_DEFAULTS", "IVS_MARIADB_PIDFILE", "IVS_MARIADB_URL");
        return new MariaDbServer(
                Path.of(ServerScript.require(vars, "IVS_MARIADB_DEFAULTS")),
                Path.of(ServerScript.require(vars, "IVS_MARIADB_PIDFILE")),
                ServerScript.require(vars, "IVS_MARIADB_URL"),
                true);
    }

    private static ServerScript script(Path state, Map<String, String> more) {
        Map<String, String> env = new HashMap<>(more);
        env.put("IVS_STATE_DIR", state.toString());
        return new ServerScript("mariadb", env);
    }

    /** The JDBC URL of this server. */
    public String url() {
        return url;
    }

    /** The connection part of a benchmark config for this server (the scripts' user). */
    public String connectionXml() {
        return "<type>MARIADB</type><url>" + url + "</url><username>" + TestServers.mariadbUser()
                + "</username><password>" + TestServers.mariadbPassword() + "</password>";
    }

    /** An own instance: stops it and deletes its state folder. The shared server is left as it is. */
    @Override
    public void close() throws IOException, InterruptedException {
        if (own) {
            script(stateDir(), Map.of()).run("stop", 90);
            ServerScript.deleteTree(stateDir());
        }
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
        return new MariaDbServer(Path.of(defaults), Path.of(pid), TestServers.mariadbUrl(), false);
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
        script(stateDir(), Map.of()).run("start", 90);
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
