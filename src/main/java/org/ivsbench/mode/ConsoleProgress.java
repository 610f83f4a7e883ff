package org.ivsbench.mode;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

import org.ivsbench.config.PhaseConfig;
import org.ivsbench.engine.WorkloadManager;
import org.ivsbench.stats.PhaseStats;
import org.ivsbench.stats.Window;

/**
 * A live line per phase: elapsed/time or done/count, ops/s and p99 of the last window, missed arrivals.
 * On a terminal the line is rewritten in place every second; otherwise a line is printed every 5 s so
 * logs stay readable.
 */
final class ConsoleProgress {
    private final WorkloadManager manager;
    private final List<PhaseConfig> phases;
    private final PrintStream out;
    private final boolean interactive = System.console() != null;
    private Thread thread;
    private volatile boolean running;

    ConsoleProgress(WorkloadManager manager, List<PhaseConfig> phases, PrintStream out) {
        this.manager = manager;
        this.phases = phases;
        this.out = out;
    }

    void start() {
        running = true;
        thread = new Thread(this::loop, "ivsbench-progress");
        thread.setDaemon(true);
        thread.start();
    }

    void stop() {
        running = false;
        if (thread != null) {
            thread.interrupt();
            try {
                thread.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (interactive) {
            out.println();
        }
    }

    private void loop() {
        int lastPhase = -1;
        long lastPrint = 0;
        try {
            while (running) {
                Thread.sleep(1000);
                PhaseStats p = manager.currentPhase();
                if (p == null) {
                    continue;
                }
                boolean newPhase = p.index() != lastPhase;
                if (newPhase && lastPhase >= 0 && interactive) {
                    out.println();
                }
                lastPhase = p.index();
                long now = System.currentTimeMillis();
                if (interactive) {
                    out.print("\r" + line(p) + "   ");
                    out.flush();
                } else if (newPhase || now - lastPrint >= 5_000) {
                    out.println(line(p));
                    lastPrint = now;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private String line(PhaseStats p) {
        PhaseConfig c = phases.get(p.index());
        String where;
        if (c.endsByCount()) {
            where = String.format(Locale.ROOT, "%,d/%,d ops", p.completed(), c.count());
        } else {
            long elapsed = Math.max(0, (System.currentTimeMillis() - p.summaryStartMs()) / 1000);
            where = String.format(Locale.ROOT, "%d/%d s", elapsed, c.warmupSeconds() + c.timeSeconds());
        }
        Window w = p.lastWindow();
        String rate = "-";
        String p99 = "-";
        if (w != null) {
            long ops = 0;
            org.HdrHistogram.Histogram all = new org.HdrHistogram.Histogram(3);
            for (Window.TypeRow r : w.rows()) {
                ops += r.counts().total();
                all.add(r.response());
            }
            rate = String.format(Locale.ROOT, "%,.0f ops/s", ops * 1000.0 / w.windowMs());
            p99 = all.getTotalCount() == 0
                    ? "-"
                    : String.format(Locale.ROOT, "p99 %.2f ms", all.getValueAtPercentile(99) / 1000.0);
        }
        return String.format(
                Locale.ROOT,
                "[phase %d/%d %s] %s | %s | %s | missed %,d",
                p.index() + 1,
                phases.size(),
                c.name(),
                where,
                rate,
                p99,
                p.missed());
    }
}
