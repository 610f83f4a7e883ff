package org.ivsbench.db.mongo;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import com.mongodb.ConnectionString;
import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandStartedEvent;
import org.junit.jupiter.api.Test;

import org.ivsbench.config.TargetConfig;
import org.ivsbench.db.Session;
import org.ivsbench.db.TableSpec;
import org.ivsbench.db.TargetException;
import org.ivsbench.op.OpResult;
import org.ivsbench.testsupport.TestServers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The driver's retryable reads and writes are off unless the URL asks for them (docs/trust.md): a connection
 * that drops under an operation is that operation's error, not a retry hidden in its latency. A proxy in front
 * of the stand-in cuts every connection between two reads.
 */
class RetryTest {

    /** Forwards a local port to the stand-in; {@link #cut()} closes every connection it carries. */
    private static final class CuttableProxy implements AutoCloseable {
        private final ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        private final List<Socket> sockets = new CopyOnWriteArrayList<>();

        CuttableProxy(String host, int port) throws IOException {
            Thread acceptor = new Thread(
                    () -> {
                        while (!server.isClosed()) {
                            try {
                                Socket client = server.accept();
                                Socket upstream = new Socket(host, port);
                                sockets.add(client);
                                sockets.add(upstream);
                                pump(client, upstream);
                                pump(upstream, client);
                            } catch (IOException e) {
                                return;
                            }
                        }
                    },
                    "proxy-accept");
            acceptor.setDaemon(true);
            acceptor.start();
        }

        private static void pump(Socket from, Socket to) {
            Thread t = new Thread(
                    () -> {
                        try (InputStream in = from.getInputStream();
                                OutputStream out = to.getOutputStream()) {
                            in.transferTo(out);
                        } catch (IOException e) {
                            // the other side was cut
                        }
                    },
                    "proxy-pump");
            t.setDaemon(true);
            t.start();
        }

        int port() {
            return server.getLocalPort();
        }

        void cut() throws IOException {
            for (Socket s : sockets) {
                s.close();
            }
            sockets.clear();
        }

        @Override
        public void close() throws IOException {
            server.close();
            cut();
        }
    }

    private static OpResult readAfterCut(String query) throws Exception {
        ConnectionString standIn = new ConnectionString(TestServers.mongoUrl());
        String[] hostPort = standIn.getHosts().get(0).split(":");
        List<String> finds = new CopyOnWriteArrayList<>();
        CommandListener listener = new CommandListener() {
            @Override
            public void commandStarted(CommandStartedEvent event) {
                if (event.getCommandName().equals("find")) {
                    finds.add(event.getCommandName());
                }
            }
        };
        try (CuttableProxy proxy = new CuttableProxy(hostPort[0], Integer.parseInt(hostPort[1]))) {
            TargetConfig base = TestServers.mongo();
            TargetConfig config =
                    base.withUrl("mongodb://127.0.0.1:" + proxy.port() + "/" + standIn.getDatabase() + query);
            try (MongoTarget target =
                    MongoTarget.open(config, new MongoTarget.TestHooks(b -> b.addCommandListener(listener), w -> {}))) {
                String table = "t_retry_" + Long.toHexString(System.nanoTime());
                TableSpec spec = new TableSpec(table, "YCSB_KEY", MongoFixture.FIELDS, 1000, null);
                target.createTable(spec);
                try (Session s = target.openSession()) {
                    assertTrue(s.insert(table, "user1", MongoFixture.fields("user1", 10))
                            .isOk());
                    Map<String, String> out = new HashMap<>();
                    assertTrue(s.read(table, "user1", null, out).isOk());
                    proxy.cut();
                    int before = finds.size();
                    OpResult r;
                    try {
                        r = s.read(table, "user1", null, out);
                    } catch (TargetException e) {
                        r = null;
                    }
                    // One find for one read, unless the URL asked the driver to retry.
                    assertEquals(query.contains("retryReads=true") ? 2 : 1, finds.size() - before, "finds sent");
                    assertTrue(s.read(table, "user1", null, out).isOk(), "the next read finds the server");
                    target.dropTable(table);
                    return r;
                }
            }
        }
    }

    @Test
    void aDroppedConnectionIsTheReadsErrorNotARetry() throws Exception {
        OpResult r = readAfterCut("");
        assertTrue(r == null || !r.isOk(), "the read under the cut failed: " + r);
    }

    @Test
    void theUrlMayAskForRetries() throws Exception {
        OpResult r = readAfterCut("?retryReads=true");
        assertTrue(r != null && r.isOk(), "retried: " + r);
    }

    @Test
    void settingsFollowTheUrl() throws Exception {
        try (MongoFixture f = new MongoFixture()) {
            assertEquals(Boolean.FALSE, f.target.clientSettings().getRetryReads());
            assertEquals(Boolean.FALSE, f.target.clientSettings().getRetryWrites());
        }
        TargetConfig config = TestServers.mongo().withUrl(TestServers.mongoUrl() + "?retryWrites=true");
        try (MongoTarget t = MongoTarget.open(config, MongoTarget.TestHooks.NONE)) {
            assertEquals(Boolean.TRUE, t.clientSettings().getRetryWrites());
            assertEquals(Boolean.FALSE, t.clientSettings().getRetryReads());
        }
    }
}
