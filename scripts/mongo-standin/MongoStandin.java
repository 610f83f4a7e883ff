import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.h2.H2Backend;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * A MongoDB wire-protocol stand-in for tests on machines where no real mongod can be installed:
 * de.bwaldvogel mongo-java-server with its H2 (MVStore) backend, bound to 127.0.0.1.
 *
 * <p>Run as a single-file source program (scripts/mongo-standin.sh does this):
 * {@code java -cp <test classpath> scripts/mongo-standin/MongoStandin.java <port> <h2-file>}
 *
 * <p>Known gaps against a real mongod (so tests must not rely on them): no update pipelines ($concat),
 * no opcounters in serverStatus, no 16 MB document limit. Real MongoDB comes from docker/.
 */
public final class MongoStandin {
    private MongoStandin() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: MongoStandin <port> <h2-file>");
            System.exit(2);
        }
        int port = Integer.parseInt(args[0]);
        Path file = Path.of(args[1]).toAbsolutePath();
        Files.createDirectories(file.getParent());

        H2Backend backend = new H2Backend(file.toString());
        MongoServer server = new MongoServer(backend);
        server.bind("127.0.0.1", port);

        CountDownLatch stopped = new CountDownLatch(1);
        // SIGTERM/SIGINT: stop accepting, close cursors, then close the MVStore so the file is consistent.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.shutdown();
            backend.close();
            stopped.countDown();
        }, "mongo-standin-shutdown"));

        System.out.println("mongo-standin listening on 127.0.0.1:" + port + " (H2 file " + file + ")");
        System.out.flush();
        stopped.await();
    }
}
