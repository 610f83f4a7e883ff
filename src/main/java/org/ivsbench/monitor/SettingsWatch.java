package org.ivsbench.monitor;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.ivsbench.db.ServerSettings;
import org.ivsbench.db.Target;

/**
 * The server's settings read every monitor interval, written only when one changed: setting-changes.csv beside
 * monitor.csv (docs/results-format.md), one row per setting whose value differs from the previous read - {@code
 * time_ms} the read that saw the new value, {@code since_ms} the read before it that still had the old one (the
 * change happened between the two, on the client's clock), the setting's name, its old and new value (empty:
 * the setting was not there). The first read is the baseline and writes nothing, so a run whose settings never
 * moved has the header alone: the settings were watched and nothing changed (no file: they were not watched).
 *
 * <p>A daemon thread of its own, on wall-clock multiples of the interval like the resource monitor; a failed read
 * is logged once and skipped (the baseline stays, so a change across a server restart is still seen).
 */
public final class SettingsWatch implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SettingsWatch.class);
    /** The file's name in the run folder. */
    public static final String FILE = "setting-changes.csv";

    static final String HEADER = "time_ms,since_ms,name,old_value,new_value";

    /** What the watch reads: a target's {@link ServerSettings}, or anything a test gives it. */
    @FunctionalInterface
    interface Source {
        Map<String, String> read() throws Exception;
    }

    private final Source source;
    private final long intervalMs;
    private final BufferedWriter out;
    private final Thread thread;
    private final AtomicInteger reads = new AtomicInteger();

    private volatile boolean stopping;
    private Map<String, String> previous;
    private long previousMs;
    private boolean failureLogged;

    private SettingsWatch(Source source, long intervalMs, Path file) throws IOException {
        if (intervalMs <= 0) {
            throw new IllegalArgumentException("settings watch interval must be positive: " + intervalMs);
        }
        this.source = source;
        this.intervalMs = intervalMs;
        this.out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
        this.thread = new Thread(this::loop, "ivs-settings");
        this.thread.setDaemon(true);
    }

    /**
     * Starts watching the target's settings into {@code dir}/setting-changes.csv, or returns empty when the target
     * cannot show them (an embedded database, MongoDB).
     */
    public static Optional<SettingsWatch> start(Target target, long intervalMs, Path dir) throws IOException {
        Optional<ServerSettings> settings = target.capability(ServerSettings.class);
        if (settings.isEmpty()) {
            return Optional.empty();
        }
        ServerSettings s = settings.get();
        return Optional.of(start(s::current, intervalMs, dir.resolve(FILE)));
    }

    static SettingsWatch start(Source source, long intervalMs, Path file) throws IOException {
        SettingsWatch w = new SettingsWatch(source, intervalMs, file);
        w.out.write(HEADER);
        w.out.newLine();
        w.out.flush();
        w.readOnce(); // the baseline, before the run's first window
        w.thread.start();
        return w;
    }

    /** Reads made so far that succeeded (the baseline included): for tests that wait for the next one. */
    int reads() {
        return reads.get();
    }

    private void loop() {
        long next = Math.floorDiv(System.currentTimeMillis(), intervalMs) * intervalMs + intervalMs;
        while (!stopping) {
            long wait = next - System.currentTimeMillis();
            if (wait > 0) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(wait));
                continue;
            }
            readOnce();
            next = Math.max(
                    next + intervalMs, Math.floorDiv(System.currentTimeMillis(), intervalMs) * intervalMs + intervalMs);
        }
    }

    private synchronized void readOnce() {
        Map<String, String> now;
        try {
            now = source.read();
        } catch (Exception | LinkageError e) {
            if (!failureLogged) {
                LOG.warn(
                        "monitor: cannot read the server's settings, changes go unrecorded until it can: {}",
                        e.toString());
                failureLogged = true;
            }
            return;
        }
        failureLogged = false;
        long nowMs = System.currentTimeMillis();
        if (previous != null) {
            TreeSet<String> names = new TreeSet<>(previous.keySet());
            names.addAll(now.keySet());
            try {
                for (String name : names) {
                    String before = previous.get(name);
                    String after = now.get(name);
                    if (!Objects.equals(before, after)) {
                        out.write(nowMs + "," + previousMs + "," + cell(name) + "," + cell(before) + "," + cell(after));
                        out.newLine();
                    }
                }
                out.flush();
            } catch (IOException e) {
                LOG.warn("monitor: writing {} failed: {}", FILE, e.toString());
            }
        }
        previous = now;
        previousMs = nowMs;
        reads.incrementAndGet();
    }

    /** RFC 4180: a value with a comma, a quote or a line break is quoted, its quotes doubled; null is empty. */
    static String cell(String value) {
        if (value == null) {
            return "";
        }
        if (value.indexOf(',') < 0 && value.indexOf('"') < 0 && value.indexOf('\n') < 0 && value.indexOf('\r') < 0) {
            return value;
        }
        return '"' + value.replace("\"", "\"\"") + '"';
    }

    /** Stops the thread, reads once more (a change in the last partial interval) and closes the file. */
    @Override
    public void close() {
        stopping = true;
        LockSupport.unpark(thread);
        try {
            thread.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        readOnce();
        try {
            synchronized (this) {
                out.close();
            }
        } catch (IOException e) {
            LOG.warn("monitor: closing {} failed: {}", FILE, e.toString());
        }
    }
}
