package org.ivsbench.stats;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.ivsbench.config.PhaseConfig;

/**
 * Owns a run's statistics: one thread wakes at every window boundary (multiples of the window on the
 * wall clock, like the monitor's samples), drains each open phase into samples.csv and latency.hlog, and
 * rewrites summary.json (with histograms.hlog and latency_by_size.csv) whenever a phase settles. {@link #finish(boolean)} drains what is left and writes
 * the final summary; it is safe to call from a shutdown hook.
 */
public final class StatsCollector implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StatsCollector.class);

    private final RunInfo run;
    private final long windowMs;
    private final SamplesCsvWriter samples;
    /** Null unless a phase ramps. */
    private final SettingsCsvWriter settings;

    private final HlogWriter hlog;
    private final SummaryWriter summary;
    private final Path totals;
    private final Path bySize;
    private final List<PhaseStats> open = new CopyOnWriteArrayList<>();
    private final List<PhaseStats> all = new CopyOnWriteArrayList<>();
    private final long startMs;
    private final Thread ticker;
    private long lastTickMs;
    private volatile boolean finished;
    private volatile Consumer<Window> windowListener = w -> {};
    private volatile OperationListener operationListener = OperationListener.NONE;
    private final Map<String, Object> runFacts = new LinkedHashMap<>();

    public StatsCollector(Path dir, RunInfo run) throws IOException {
        this.run = run;
        this.windowMs = run.windowSeconds() * 1000L;
        this.startMs = System.currentTimeMillis();
        this.lastTickMs = startMs;
        this.samples = new SamplesCsvWriter(dir.resolve("samples.csv"));
        this.settings = SettingsCsvWriter.open(dir, run.phases());
        // The first window begins at the wall-clock multiple before the run started; HdrHistogram's readers
        // skip intervals that begin before the log's start, so the log starts with that window.
        this.hlog = new HlogWriter(dir.resolve("latency.hlog"), startMs / windowMs * windowMs);
        this.summary = new SummaryWriter(dir.resolve("summary.json"));
        this.totals = dir.resolve("histograms.hlog");
        this.bySize = dir.resolve("latency_by_size.csv");
        writeSummary(false, false);
        this.ticker = new Thread(this::tickLoop, "ivsbench-stats");
        ticker.setDaemon(true);
        ticker.start();
    }

    /** Registers a phase; its operations may be recorded from now on. */
    public PhaseStats openPhase(PhaseConfig phase, List<String> types) {
        PhaseStats stats = new PhaseStats(
                phase.index(), phase.name(), types, operationListener.phaseOpened(phase.index(), phase.name(), types));
        all.add(stats);
        open.add(stats);
        return stats;
    }

    /**
     * Called on the statistics thread with every full window once it is written (not the partial last one);
     * it must return quickly. A failing listener is logged, never ends the statistics.
     */
    public void setWindowListener(Consumer<Window> listener) {
        this.windowListener = listener;
    }

    /** Tells {@code listener} of the phases opened from now on and of every operation they record. */
    public void setOperationListener(OperationListener listener) {
        this.operationListener = listener;
    }

    /**
     * Adds a top-level block to summary.json (e.g. {@code shard}: which part of a sharded run this is, and when it
     * passed the start barrier), written from the next summary on.
     */
    public synchronized void putRunFact(String key, Object value) {
        runFacts.put(key, value);
    }

    public long startMs() {
        return startMs;
    }

    private void tickLoop() {
        try {
            while (!finished) {
                long now = System.currentTimeMillis();
                long next = (now / windowMs + 1) * windowMs;
                Thread.sleep(Math.max(1, next - now));
                synchronized (this) {
                    if (finished) {
                        return;
                    }
                    tick(next);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException | UncheckedIOException e) {
            LOG.error("writing results failed: {}", e.getMessage());
        }
    }

    private void tick(long boundaryMs) throws IOException {
        long windowStart = boundaryMs - windowMs;
        List<PhaseStats> retired = new ArrayList<>();
        List<Window> windows = new ArrayList<>();
        for (PhaseStats p : open) {
            boolean settled = p.isSettled();
            Window w = p.drain(windowStart, windowMs);
            samples.write(w);
            writeSettings(w, p);
            windows.add(w);
            try {
                windowListener.accept(w);
            } catch (RuntimeException e) {
                LOG.warn("the window listener failed: {}", e.getMessage());
            }
            if (settled) {
                retired.add(p);
            }
        }
        hlog.write(windows);
        lastTickMs = boundaryMs;
        if (!retired.isEmpty()) {
            open.removeAll(retired);
            writeSummary(false, false);
        }
    }

    /**
     * Stops the window thread, drains every phase one last time (a partial window) and writes the final
     * summary. Idempotent.
     */
    public void finish(boolean interrupted) throws IOException {
        synchronized (this) {
            if (finished) {
                return;
            }
            finished = true;
        }
        ticker.interrupt();
        try {
            ticker.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (this) {
            long now = System.currentTimeMillis();
            long length = Math.max(1, now - lastTickMs);
            List<Window> windows = new ArrayList<>();
            for (PhaseStats p : open) {
                Window w = p.drain(lastTickMs, length);
                samples.write(w);
                writeSettings(w, p);
                windows.add(w);
            }
            hlog.write(windows);
            open.clear();
            writeSummary(!interrupted, interrupted);
        }
    }

    private void writeSettings(Window w, PhaseStats p) throws IOException {
        if (settings != null) {
            settings.write(w, p.measuredStartMs());
        }
    }

    /** The summaries of all phases opened so far. */
    public List<PhaseSummary> summaries() {
        return all.stream().map(PhaseStats::summary).toList();
    }

    private synchronized void writeSummary(boolean complete, boolean interrupted) throws IOException {
        summary.write(
                run, startMs, System.currentTimeMillis(), complete, interrupted, summaries(), Map.copyOf(runFacts));
        TotalsHlogWriter.write(totals, all, startMs / windowMs * windowMs);
        LatencyBySizeCsv.write(bySize, all);
    }

    /** The collector of the phase at {@code index}, or null when it was not opened. */
    public PhaseStats phase(int index) {
        return all.stream().filter(p -> p.index() == index).findFirst().orElse(null);
    }

    /** The response times by size of the phase at {@code index} so far (empty when it was not opened). */
    public List<SizeLatency.Row> latencyBySize(int index) {
        return all.stream()
                .filter(p -> p.index() == index)
                .findFirst()
                .map(PhaseStats::latencyBySize)
                .orElse(List.of());
    }

    @Override
    public void close() throws IOException {
        finish(false);
        samples.close();
        if (settings != null) {
            settings.close();
        }
        hlog.close();
    }
}
