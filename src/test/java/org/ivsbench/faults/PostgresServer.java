package org.ivsbench.faults;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.ivsbench.testsupport.TestServers;

/**
 * Crashes and restarts the private PostgreSQL of the tests (scripts/postgres.sh, exported by scripts/test.sh as
 * IVS_POSTGRES_PIDFILE = data/postmaster.pid). The state folder is the data directory's parent, so a restart runs
 * the same server (same data directory and port) and its crash recovery.
 */
public final class PostgresServer {
    private final Path pidFile;

    private PostgresServer(Path pidFile) {
        this.pidFile = pidFile;
    }

    /** The private server, or a failure that says how to provide it. */
    public static PostgresServer fromEnvironment() {
        TestServers.postgresUrl(); // fails (or skips) with instructions when no server is configured
        return new PostgresServer(Path.of(TestServers.postgresPidFile()));
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
        ProcessBuilder pb = new ProcessBuilder("scripts/postgres.sh", "start").redirectErrorStream(true);
        pb.environment().put("IVS_STATE_DIR", stateDir().toString());
        pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
        Process p = pb.start();
        if (!p.waitFor(90, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IllegalStateException("scripts/postgres.sh start failed (state " + stateDir() + ")");
        }
    }
}
