package org.ivsbench.stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;

import org.ivsbench.op.Outcome;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The window statistics terminals record into while the collector drains them. */
class PhaseStatsTest {
    /**
     * An operation's response and service time must land in the same window: samples.csv's lat_* and svc_*
     * columns describe the same operations. Two writers record as fast as they can while windows are drained
     * every millisecond until 200 of them caught operations (the race is most likely there); each window, per type, has as many service values as
     * operations counted, and nothing is lost or counted twice over all windows.
     */
    @Test
    void responseAndServiceOfAnOperationLandInTheSameWindow() throws Exception {
        PhaseStats stats = new PhaseStats(0, "p", List.of("A", "B"));
        AtomicBoolean stop = new AtomicBoolean();
        long[] recorded = new long[2];
        List<Thread> writers = new ArrayList<>();
        for (int w = 0; w < 2; w++) {
            int id = w;
            Thread t = new Thread(() -> {
                long n = 0;
                while (!stop.get()) {
                    stats.record(
                            (int) (n % 2), n % 10 == 0 ? Outcome.ERROR : Outcome.OK, 2_000_000, 1_000_000, 0, 0, "x");
                    n++;
                }
                recorded[id] = n;
            });
            writers.add(t);
            t.start();
        }
        // Drain until 200 windows caught operations while the writers ran: the race is exercised by count, not
        // by how much CPU the box gave the writers in some fixed time. The deadline only guards against a hang.
        List<Window> windows = new ArrayList<>();
        int busyWhileWriting = 0;
        long guard = System.nanoTime() + 120_000_000_000L;
        while (busyWhileWriting < 200 && System.nanoTime() < guard) {
            Window w = stats.drain(0, 1);
            windows.add(w);
            busyWhileWriting += Arrays.stream(w.rows()).anyMatch(r -> r.counts().total() > 0) ? 1 : 0;
            Thread.sleep(1);
        }
        stop.set(true);
        for (Thread t : writers) {
            t.join();
        }
        windows.add(stats.drain(0, 1));
        assertEquals(200, busyWhileWriting, "windows drained while the writers were recording");
        long total = 0;
        for (Window w : windows) {
            for (Window.TypeRow row : w.rows()) {
                assertEquals(
                        row.counts().total(),
                        row.service().getTotalCount(),
                        "window " + windows.indexOf(w) + " type " + row.type() + ": operations vs service values");
                assertEquals(row.counts().total(), row.response().getTotalCount());
                total += row.counts().total();
            }
        }
        assertEquals(recorded[0] + recorded[1], total, "every operation in exactly one window");
    }
}
