package org.ivsbench.testsupport;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Predicate;

import com.fasterxml.jackson.databind.ObjectMapper;

import org.ivsbench.db.ServerActivity;

/**
 * A lock held by one connection and a statement of a second connection waiting for it, for the activity snapshot
 * tests: {@link #snapshotWhile} runs the waiting statement on its own thread, takes snapshots until one shows what
 * the test looks for (the server needs a moment to register the wait; no timing is measured), and leaves the
 * holder's transaction for the caller to end, which releases the waiter.
 */
public final class HeldLock {
    /** Snapshots taken before giving up: the wait registers within milliseconds, this is only a bound. */
    private static final int ATTEMPTS = 200;

    private HeldLock() {}

    public static Map<String, Object> snapshotWhile(
            ServerActivity activity, Connection waiter, String waitingSql, Predicate<Map<String, Object>> shows)
            throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<?> waiting = pool.submit(() -> {
                try (Statement st = waiter.createStatement()) {
                    st.execute(waitingSql);
                }
                return null;
            });
            Map<String, Object> last = Map.of();
            for (int i = 0; i < ATTEMPTS; i++) {
                last = activity.activity();
                if (shows.test(last)) {
                    return last;
                }
                if (waiting.isDone()) {
                    waiting.get(); // its failure, if any, says why nothing waited
                    throw new AssertionError("the waiting statement finished without waiting: " + last);
                }
                Thread.sleep(50);
            }
            throw new AssertionError("no snapshot showed the wait: " + last);
        } finally {
            pool.shutdown();
        }
    }

    /**
     * Writes the snapshot as JSON to {@code <ivs.activity.record>/<name>.json} when that system property names a
     * directory (how results-analyzer/tests/data/activity/ was made from the real servers); nothing otherwise.
     */
    public static void record(String name, Map<String, Object> snapshot) throws Exception {
        String dir = System.getProperty("ivs.activity.record");
        if (dir == null || dir.isBlank()) {
            return;
        }
        Path out = Files.createDirectories(Path.of(dir)).resolve(name + ".json");
        new ObjectMapper().writerWithDefaultPrettyPrinter().writeValue(out.toFile(), snapshot);
    }

    /** Ends the connection's transaction (releasing the lock); SQLExceptions become unchecked. */
    public static void release(Connection holder) {
        try {
            holder.rollback();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
