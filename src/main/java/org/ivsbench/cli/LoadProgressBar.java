package org.ivsbench.cli;

import java.io.PrintStream;

import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

import org.ivsbench.bench.LoadProgress;

/** The loader's progress bar: records loaded out of the total, with MB/s in the bar's extra message. */
final class LoadProgressBar implements LoadProgress, AutoCloseable {
    private final PrintStream out;
    private ProgressBar bar;
    private final long startNanos = System.nanoTime();

    LoadProgressBar(PrintStream out) {
        this.out = out;
    }

    @Override
    public synchronized void loaded(long records, long bytes) {
        if (bar == null) {
            bar = new ProgressBarBuilder().setTaskName("Loading").setInitialMax(total)
                    .setStyle(ProgressBarStyle.ASCII).setUpdateIntervalMillis(500).showSpeed()
                    .setConsumer(new ConsoleProgressBarConsumer(out)).build();
        }
        bar.stepTo(records);
        double seconds = Math.max(1e-3, (System.nanoTime() - startNanos) / 1e9);
        bar.setExtraMessage(String.format(" %.1f MB/s", bytes / 1e6 / seconds));
    }

    private long total = -1;

    @Override
    public synchronized void starting(long totalRecords) {
        total = totalRecords;
    }

    synchronized void done() {
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
