package org.ivsbench.mode;

import java.io.PrintStream;
import java.util.Locale;
import java.util.function.LongSupplier;

import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

import org.ivsbench.bench.LoadProgress;

/**
 * The loader's progress: records loaded out of the total, records/s and MB/s since the load started. On a terminal
 * it is a bar redrawn in place; elsewhere (a log, a pipe, CI), where a redrawn line is printed again each time, it
 * is a plain line at most every {@value #PLAIN_EVERY_MS} ms and none at the end (the "Loaded ..." summary follows).
 */
public final class LoadProgressBar implements LoadProgress, AutoCloseable {
    static final long PLAIN_EVERY_MS = 5000;

    private final PrintStream out;
    private final boolean interactive;
    private final LongSupplier nanoTime;
    private final long startNanos;
    private ProgressBar bar;
    private long total = -1;
    private long lastPlainNanos;

    public LoadProgressBar(PrintStream out) {
        this(out, System.console() != null, System::nanoTime);
    }

    LoadProgressBar(PrintStream out, boolean interactive, LongSupplier nanoTime) {
        this.out = out;
        this.interactive = interactive;
        this.nanoTime = nanoTime;
        this.startNanos = nanoTime.getAsLong();
        this.lastPlainNanos = startNanos;
    }

    @Override
    public synchronized void starting(long totalRecords) {
        total = totalRecords;
    }

    @Override
    public synchronized void loaded(long records, long bytes) {
        long now = nanoTime.getAsLong();
        String rates = rates(records, bytes, now);
        if (!interactive) {
            if (now - lastPlainNanos >= PLAIN_EVERY_MS * 1_000_000 && records < total) {
                lastPlainNanos = now;
                out.printf(
                        Locale.ROOT,
                        "Loading %,d/%,d records (%.0f%%)%s%n",
                        records,
                        total,
                        total > 0 ? 100.0 * records / total : 0,
                        rates);
            }
            return;
        }
        if (bar == null) {
            // No showSpeed(): it reads "?/s" until a second has passed; the rate is in the extra message instead.
            bar = new ProgressBarBuilder()
                    .setTaskName("Loading")
                    .setInitialMax(total)
                    .setStyle(ProgressBarStyle.ASCII)
                    .setUpdateIntervalMillis(500)
                    .setConsumer(new ConsoleProgressBarConsumer(out))
                    .build();
        }
        bar.stepTo(records);
        bar.setExtraMessage(rates);
    }

    private String rates(long records, long bytes, long now) {
        double seconds = Math.max(1e-3, (now - startNanos) / 1e9);
        return String.format(Locale.ROOT, " %,.0f records/s, %.1f MB/s", records / seconds, bytes / 1e6 / seconds);
    }

    public synchronized void done() {
        if (bar != null) {
            bar.close();
            bar = null;
        }
    }

    @Override
    public synchronized void close() {
        done();
    }
}
