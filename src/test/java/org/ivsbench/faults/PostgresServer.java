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
 * Crashes and restarts a private PostgreSQL of the tests (scripts/postgres.sh): the suite's shared one (exported by
 * scripts/test.sh as IVS_POSTGRES_PIDFILE = data/postmaster.pid), or an instance of a test's own
 * ({@link #ownInstance}). The state folder is the data directory's parent, so a restart runs the same server (same
 * data directory and port) and its crash recovery.
 */
public final class PostgresServer implements AutoCloseable {
    /** The first port an own instance tries: below Linux's ephemeral range, as scripts/postgres.sh explains. */
    private static final int OWN_BASE_PORT = 25532;

    private final Path pidFile;
    private final String url;
    private final boolean own;

    private PostgresServer(Path pidFile, String url, boolean own) {
        this.pidFile = pidFile;
        this.url = url;
        this.own = own;
    }

    /**
     * A PostgreSQL of the caller's own, in a new state folder and on a port of its own, started now by
     * scripts/postgres.sh (the suite's server must be configured: its user and password are the script's too).
     * {@link #close} stops it and deletes its folder. Killing it touches no other test's server.
     */
    public static PostgresServer ownInstance(String name) throws IOException, InterruptedException {
        TestServers.postgresUrl(); // fails (or skips) with instructions when the servers are not installed and started
        Path state = ServerScript.ownStateDir(name);
        ServerScript script = script(state, Map.of("IVS_POSTGRES_BASE_PORT", Integer.toString(OWN_BASE_PORT)));
        Map<String, String> vars = script.startOwn(state, 120, "IVS_POSTGRES_PIDFILE", "IVS_POSTGRES_URL");
        return new PostgresServer(
                Path.of(ServerScript.require(vars, "IVS_POSTGRES_PIDFILE")),
                ServerScript.require(vars, "IVS_POSTGRES_URL"),
                true);
    }

    private static ServerScript script(Path state, Map<String, String> more) {
        Map<String, String> env = new HashMap<>(more);
        env.put("IVS_STATE_DIR", state.toString());
        return new ServerScript("postgres", env);
    }

    /** The JDBC URL of this server. */
    public String url() {
        return url;
    }

    /** The connection part of a benchmark config for this server (the scripts' user). */
    public String connectionXml() {
        return "<type>POSTGRESQL</type><url>" + url + "</url><username>" + TestServers.postgresUser()
                + "</username><password>" + TestServers.postgresPassword() + "</password>";
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
    public static PostgresServer fromEnvironment() {
        TestServers.postgresUrl(); // fails (or skips) with instructions when no server is configured
        return new PostgresServer(Path.of(TestServers.postgresPidFile()), TestServers.postgresUrl(), false);
    }

    private Path dataDir() {
        return pidFile.getParent();
    }

    public Path stateDir() {
        return dataDir().getParent();
    }

    /**
     * SIGKILL to the postmaster and every backend (no shutdown, no checkpoint): what a crash, an OOM kill of the
     * whole server or a power cut does. Each backend leads a process group of its own, so the postmaster is first
     * stopped (SIGSTOP: it can fork no backend while its children are listed), then all are killed. Killing the
     * postmaster alone would leave backends holding its shared memory and its port. Waits until all are gone.
     */
    public void kill9() throws Exception {
        long pid = Long.parseLong(
                Files.readAllLines(pidFile, StandardCharsets.US_ASCII).get(0).trim());
        ProcessHandle postmaster =
                ProcessHandle.of(pid).orElseThrow(() -> new IllegalStateException("no process " + pid));
        // A recycled pid must not be mistaken for the server.
        String cmdline = Files.readString(Path.of("/proc", Long.toString(pid), "cmdline"), StandardCharsets.UTF_8);
        if (!cmdline.contains(dataDir().toString())) {
            throw new IllegalStateException("pid " + pid + " is not our postgres: " + cmdline.replace('\0', ' '));
        }
        signal("STOP", pid);
        List<ProcessHandle> backends = postmaster.children().toList();
        postmaster.destroyForcibly(); // SIGKILL
        backends.forEach(ProcessHandle::destroyForcibly);
        postmaster.onExit().get(10, TimeUnit.SECONDS);
        for (ProcessHandle backend : backends) {
            backend.onExit().get(10, TimeUnit.SECONDS);
        }
    }

    private static void signal(String name, long pid) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(pid))
                .redirectErrorStream(true)
                .start();
        if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new IllegalStateException("kill -" + name + " " + pid + " failed: "
                    + new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    /** Starts the server if it is not running (idempotent); crash recovery runs on start. */
    public void start() throws IOException, InterruptedException {
        script(stateDir(), Map.of()).run("start", 90);
    }
}
