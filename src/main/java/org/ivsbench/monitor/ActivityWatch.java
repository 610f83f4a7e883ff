package org.ivsbench.monitor;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.HdrHistogram.Histogram;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.ivsbench.db.ServerActivity;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;
import org.ivsbench.stats.OperationCounts;
import org.ivsbench.stats.Window;

/**
 * Watches a run's closed statistics windows for a step ({@link StepDetector}, one per phase) and at each step
 * takes ONE snapshot of what the server is doing ({@link ServerActivity}), appended as a line of activity.jsonl
 * (docs/results-format.md). The snapshot runs on its own thread, never on the statistics thread nor the
 * terminals'; while one is running a further step is not snapshotted. The file exists only once a step was seen.
 */
public final class ActivityWatch implements Consumer<Window>, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ActivityWatch.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    /**
     * At most one snapshot per this many milliseconds, per phase and for the whole run; a step in throughput or
     * missed arrivals is held back only by an earlier one of its kind ({@link StepBudget}).
     */
    public static final long MIN_INTERVAL_MS = 30_000;

    private final Optional<ServerActivity> activity;
    private final Path file;
    private final long minIntervalMs;
    private final Map<Integer, StepDetector> detectors = new HashMap<>();
    private final ExecutorService snapshots;
    private final AtomicBoolean busy = new AtomicBoolean();
    private final StepBudget budget;

    public ActivityWatch(Target target, Path dir, long minIntervalMs) {
        this.activity = target.capability(ServerActivity.class);
        this.file = dir.resolve("activity.jsonl");
        this.minIntervalMs = minIntervalMs;
        this.budget = new StepBudget(minIntervalMs);
        this.snapshots = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "ivsbench-activity");
            t.setDaemon(true);
            return t;
        });
    }

    /** A closed window (statistics thread): feeds its phase's detector; a step starts a snapshot. */
    @Override
    public void accept(Window w) {
        if (w.measuredMs() < w.windowMs()) {
            // Warmup and the partial windows at a phase's edges are not levels: a detector fed with them would
            // call the first measured window a step (and spend the run's snapshot budget on it).
            return;
        }
        StepDetector.Point point = pointOf(w);
        Optional<StepDetector.Step> step = detectors
                .computeIfAbsent(w.phase(), p -> new StepDetector(minIntervalMs))
                .add(point);
        if (step.isEmpty()) {
            return;
        }
        long endMs = w.startMs() + w.windowMs();
        if (busy.get() || !budget.take(endMs, step.get().service())) {
            return;
        }
        busy.set(true);
        String trigger = step.get().trigger();
        snapshots.execute(() -> {
            try {
                record(w.phase(), w.startMs(), trigger);
            } finally {
                busy.set(false);
            }
        });
    }

    /** The window's ALL row as the detector's figures: per second, p99 of every type's response times. */
    static StepDetector.Point pointOf(Window w) {
        double seconds = w.windowMs() / 1000.0;
        OperationCounts all = new OperationCounts(0, 0, 0, 0);
        Histogram response = new Histogram(3);
        for (Window.TypeRow row : w.rows()) {
            all = all.plus(row.counts());
            response.add(row.response());
        }
        double p99 = response.getTotalCount() > 0 ? response.getValueAtPercentile(99) : Double.NaN;
        return new StepDetector.Point(w.startMs(), all.total() / seconds, p99, w.missed() / seconds);
    }

    private void record(int phase, long windowStartMs, String trigger) {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("time_ms", System.currentTimeMillis());
        line.put("window_ms", windowStartMs);
        line.put("phase", phase);
        line.put("trigger", trigger);
        if (activity.isEmpty()) {
            line.put("snapshot", Map.of("note", "this database offers no activity snapshot"));
        } else {
            try {
                line.put("snapshot", activity.get().activity());
            } catch (TargetException | RuntimeException e) {
                line.put("snapshot", Map.of("note", "the activity snapshot failed: " + e.getMessage()));
            }
        }
        try (BufferedWriter out = Files.newBufferedWriter(
                file, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
            out.write(JSON.writeValueAsString(line));
            out.newLine();
        } catch (IOException e) {
            LOG.warn("writing {} failed: {}", file.getFileName(), e.getMessage());
        }
    }

    /** Waits for a snapshot under way (a few seconds at most) so that it lands in the results folder. */
    @Override
    public void close() {
        snapshots.shutdown();
        try {
            if (!snapshots.awaitTermination(10, TimeUnit.SECONDS)) {
                LOG.warn("an activity snapshot did not finish in time; activity.jsonl may lack it");
                snapshots.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
