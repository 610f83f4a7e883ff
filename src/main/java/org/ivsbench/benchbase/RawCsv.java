package org.ivsbench.benchbase;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * BenchBase's per-transaction {@code .raw.csv}: one row per measured operation, written as it completes (the file
 * grows with the run; memory does not). Latency here is BenchBase's: from the operation's actual start to its end
 * (ivsbench's service time). Thread-safe: the terminals of a run share one instance.
 */
public final class RawCsv implements AutoCloseable {
    public static final String HEADER = "Transaction Type Index,Transaction Name,Start Time (microseconds),"
            + "Latency (microseconds),Worker Id (start number),Phase Id (index in config file)";

    private final BufferedWriter out;
    private final List<String> typeNames;
    /** Per phase index: the wall-clock ms before which an operation belongs to the warmup. */
    private final Map<Integer, Long> measuredFromMs = new ConcurrentHashMap<>();

    private IOException failure;

    public RawCsv(Path file, List<String> typeNames) throws IOException {
        this.out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
        this.typeNames = List.copyOf(typeNames);
        out.write(HEADER);
        out.write('\n');
    }

    /** A terminal starts the phase now; the first terminal to start it fixes where its warmup ends. */
    void phaseStarted(int phaseIndex, long nowMs, long warmupSeconds) {
        measuredFromMs.putIfAbsent(phaseIndex, nowMs + warmupSeconds * 1000);
    }

    void record(int typeIndex, long startEpochMicros, long latencyMicros, int terminalId, int phaseIndex) {
        Long from = measuredFromMs.get(phaseIndex);
        if (from != null && startEpochMicros / 1000 < from) {
            return; // warmup: excluded, as from every other figure
        }
        // BenchBase numbers types from 1, phases from 1, and prints the start in seconds despite the header.
        String row = String.format(
                Locale.ROOT,
                "%d,%s,%.6f,%d,%d,%d%n",
                typeIndex + 1,
                typeNames.get(typeIndex),
                startEpochMicros / 1e6,
                latencyMicros,
                terminalId,
                phaseIndex + 1);
        synchronized (this) {
            if (failure != null) {
                return;
            }
            try {
                out.write(row);
            } catch (IOException e) {
                failure = e; // reported once at close; the run goes on
            }
        }
    }

    @Override
    public synchronized void close() throws IOException {
        try {
            out.close();
        } finally {
            if (failure != null) {
                throw failure;
            }
        }
    }
}
