package org.ivsbench.faults;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import org.ivsbench.db.cassandra.CassandraFixture;

/**
 * Crashes and restarts a private Cassandra of the tests (scripts/cassandra.sh): the suite's shared node (scripts/test.sh
 * exports its pid file as IVS_CASSANDRA_PIDFILE) or a node of a test's own ({@link #ownInstance}). The state folder is
 * the one holding the pid file, so a restart runs the same node (same data, same native port) and replays its commit
 * log.
 */
public final class CassandraServer implements AutoCloseable {
    /** The first native port an own node tries (the shared node's default is 19042). */
    private static final int OWN_BASE_PORT = 19142;

    private final Path stateDir;
    private final Map<String, String> env;
    private final String url;
    private final boolean own;

    private CassandraServer(Path stateDir, Map<String, String> env, String url, boolean own) {
        this.stateDir = stateDir;
        this.env = Map.copyOf(env);
        this.url = url;
        this.own = own;
    }

    /** The private server, or a failure that says how to provide it. */
    public static CassandraServer fromEnvironment() {
        CassandraFixture.url(); // fails (or skips) with instructions when no server is configured
        Path state = Path.of(CassandraFixture.pidFile()).getParent();
        return new CassandraServer(
                state, Map.of("IVS_CASSANDRA_STATE_DIR", state.toString()), CassandraFixture.url(), false);
    }

    /**
     * A node of the caller's own, in a new state folder and on ports of its own, started now by scripts/cassandra.sh
     * with the jars the shared node runs (when its folder has them). {@link #close} stops it and deletes its folder.
     * Killing it touches no other test's server.
     */
    public static CassandraServer ownInstance(String name) throws IOException, InterruptedException {
        Path shared = Path.of(CassandraFixture.pidFile()).getParent(); // fails (or skips) with instructions
        Path state = ServerScript.ownStateDir(name);
        Map<String, String> env = new HashMap<>();
        env.put("IVS_CASSANDRA_STATE_DIR", state.toString());
        env.put("IVS_CASSANDRA_BASE_PORT", Integer.toString(OWN_BASE_PORT));
        if (Files.isDirectory(shared.resolve("lib"))) {
            env.put("IVS_CASSANDRA_LIB_DIR", shared.resolve("lib").toString());
        }
        Map<String, String> vars = new ServerScript("cassandra", env).startOwn(state, 180, "IVS_CASSANDRA_URL");
        return new CassandraServer(state, env, ServerScript.require(vars, "IVS_CASSANDRA_URL"), true);
    }

    /** The connection part of a benchmark config for this node. */
    public String connectionXml() {
        return "<type>CASSANDRA</type><url>" + url.replace("&", "&amp;") + "</url>";
    }

    /** SIGKILL to the server (no drain, no flush): what a crash or an OOM kill does. Waits until it is gone. */
    public void kill9() throws IOException, InterruptedException {
        new ServerScript("cassandra", env).run("kill9", 30);
    }

    /** Starts the server if it is not running (idempotent); the commit log is replayed on start. */
    public void start() throws IOException, InterruptedException {
        new ServerScript("cassandra", env).run("start", 150);
    }

    /** An own node: stops it and deletes its state folder. The shared node is left as it is. */
    @Override
    public void close() throws IOException, InterruptedException {
        if (own) {
            new ServerScript("cassandra", env).run("stop", 90);
            ServerScript.deleteTree(stateDir);
        }
    }
}
