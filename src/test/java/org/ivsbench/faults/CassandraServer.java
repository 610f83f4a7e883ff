package org.ivsbench.faults;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.ivsbench.db.cassandra.CassandraFixture;

/**
 * Crashes and restarts the private Cassandra of the tests (scripts/cassandra.sh; scripts/test.sh exports its pid
 * file as IVS_CASSANDRA_PIDFILE). The state folder is the one holding the pid file, so a restart runs the same node
 * (same data, same native port) and replays its commit log.
 */
public final class CassandraServer {
    private final Path stateDir;

    private CassandraServer(Path stateDir) {
        this.stateDir = stateDir;
    }

    /** The private server, or a failure that says how to provide it. */
    public static CassandraServer fromEnvironment() {
        CassandraFixture.url(); // fails (or skips) with instructions when no server is configured
        return new CassandraServer(Path.of(CassandraFixture.pidFile()).getParent());
    }

    /** SIGKILL to the server (no drain, no flush): what a crash or an OOM kill does. Waits until it is gone. */
    public void kill9() throws IOException, InterruptedException {
        script("kill9", 30);
    }

    /** Starts the server if it is not running (idempotent); the commit log is replayed on start. */
    public void start() throws IOException, InterruptedException {
        script("start", 150);
    }

    private void script(String command, int seconds) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder("scripts/cassandra.sh", command).redirectErrorStream(true);
        pb.environment().put("IVS_CASSANDRA_STATE_DIR", stateDir.toString());
        pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
        Process p = pb.start();
        if (!p.waitFor(seconds, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IllegalStateException("scripts/cassandra.sh " + command + " failed (state " + stateDir + ")");
        }
    }
}
