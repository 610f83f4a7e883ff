package org.ivsbench.experiment;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import org.ivsbench.bench.ExperimentWorkload;
import org.ivsbench.bench.ExperimentWorkload.TypeColumns;
import org.ivsbench.stats.LatencySummary;
import org.ivsbench.stats.PhaseSummary;
import org.ivsbench.stats.SizeLatency;

/**
 * epochs.csv, value_sizes.csv, latency_by_size.csv and engine_state.csv of an experiment (docs/results-format.md, "Experiments"): appended one row
 * at a time and flushed, so an interrupted experiment keeps every finished row. A row is written only for a run
 * phase that ran to its end: one cut short by a stop has no row (its folder keeps what it measured).
 * {@code *_ops} and {@code *_throughput} count every outcome; {@code *_goodput} only the successful ones.
 */
final class EpochsCsv implements AutoCloseable {
    /** epochs.csv's columns before the run types' own (docs/results-format.md, "Experiments"). */
    static final String BASE_HEADER = "epoch,mode,records,data_bytes,value_min,value_avg,value_p50,value_p99,"
            + "value_max,extend_ops,extend_skipped,extend_throughput,extend_lat_avg_us,extend_lat_p99_us,run_ops,"
            + "run_throughput,run_lat_avg_us,run_lat_p50_us,run_lat_p99_us,snapshot_ms,restore_ms,"
            + "extend_goodput,extend_aborted,extend_error,run_goodput,run_skipped,run_aborted,run_error,run_missed,"
            + "record_min,record_avg,record_p50,record_p99,record_max,records_at_cap";

    /**
     * The columns after the run types' (appended later, so they come last): the quiescence wait before the row's
     * run phase ({@link QuiescenceWait}): its length and whether it ended without the server seen quiet.
     */
    static final String QUIESCE_HEADER = "quiesce_ms,quiesce_timed_out";

    static final String SIZES_HEADER = "epoch,bucket_lo,bucket_hi,count";

    static final String LATENCY_BY_SIZE_HEADER = "epoch,mode,phase," + SizeLatency.Row.CSV_HEADER;

    /** The storage engine's state each run phase started from ({@link QuiescenceWait.Result#state}), long form. */
    static final String ENGINE_STATE_HEADER = "epoch,mode,name,value";

    /**
     * slices.csv: one row per slice of a run phase in slices (experiment/slices), in the order they ran, so a
     * mode ratio can be taken from adjacent slices; {@code round} counts the rounds of the alternation.
     */
    static final String SLICES_HEADER = "epoch,round,mode,start_ms,end_ms,run_ops,run_throughput,run_lat_avg_us,"
            + "run_lat_p50_us,run_lat_p99_us,run_missed";

    private final List<TypeColumns> runTypes;
    private final BufferedWriter epochs;
    private final BufferedWriter sizes;
    private final BufferedWriter latencyBySize;
    private final BufferedWriter engineState;
    private final Path dir;
    private final int keepThroughEpoch;
    /** slices.csv, opened at its first row: an experiment without slices has none. */
    private BufferedWriter slices;

    /**
     * Opens both files for appending; writes the headers of new files. Rows of epochs after
     * {@code keepThroughEpoch} (an unfinished epoch before a resume) are removed first. {@code runTypes} are the
     * run phase's types with their own columns, as the benchmark's experiment names them
     * ({@link ExperimentWorkload#runTypeColumns()}).
     */
    EpochsCsv(Path dir, int keepThroughEpoch, List<TypeColumns> runTypes) throws IOException {
        this.runTypes = List.copyOf(runTypes);
        this.dir = dir;
        this.keepThroughEpoch = keepThroughEpoch;
        epochs = open(dir.resolve("epochs.csv"), epochsHeader(runTypes), keepThroughEpoch);
        sizes = open(dir.resolve("value_sizes.csv"), SIZES_HEADER, keepThroughEpoch);
        latencyBySize = open(dir.resolve("latency_by_size.csv"), LATENCY_BY_SIZE_HEADER, keepThroughEpoch);
        engineState = open(dir.resolve("engine_state.csv"), ENGINE_STATE_HEADER, keepThroughEpoch);
        if (Files.exists(dir.resolve(SLICES_FILE))) {
            slices = open(dir.resolve(SLICES_FILE), SLICES_HEADER, keepThroughEpoch);
        }
        if (Files.exists(dir.resolve(MAINTENANCE_FILE))) {
            maintenance = open(dir.resolve(MAINTENANCE_FILE), MAINTENANCE_HEADER, keepThroughEpoch);
        }
    }

    static final String SLICES_FILE = "slices.csv";

    static final String MAINTENANCE_FILE = "maintenance.csv";

    /**
     * maintenance.csv (mode main-maintained): per epoch the physical copy's time, the reorganization's statement
     * and time, and one row per physical figure of the table, before and after it.
     */
    static final String MAINTENANCE_HEADER = "epoch,copy_ms,maintenance_ms,statement,name,before,after";

    private BufferedWriter maintenance;

    /** What epoch {@code epoch}'s maintenance of main-maintained's copy did ({@link MaintainedCopy}). */
    void maintenanceRows(int epoch, long copyMs, org.ivsbench.db.Reorganization.Result r) throws IOException {
        if (maintenance == null) {
            maintenance = open(dir.resolve(MAINTENANCE_FILE), MAINTENANCE_HEADER, keepThroughEpoch);
        }
        String head =
                epoch + "," + copyMs + "," + r.millis() + "," + r.statement().replace(",", ";") + ",";
        java.util.Set<String> names = new java.util.LinkedHashSet<>(r.before().keySet());
        names.addAll(r.after().keySet());
        for (String name : names) {
            maintenance.write(head + name + "," + fmt(r.before().get(name)) + ","
                    + fmt(r.after().get(name)));
            maintenance.newLine();
        }
        if (names.isEmpty()) {
            maintenance.write(head + ",,");
            maintenance.newLine();
        }
        maintenance.flush();
    }

    /** One slice of a mode's run phase, as it ran ({@link InterleavedModes}). */
    void sliceRow(int epoch, int round, Mode mode, PhaseSummary s) throws IOException {
        if (slices == null) {
            slices = open(dir.resolve(SLICES_FILE), SLICES_HEADER, keepThroughEpoch);
        }
        slices.write(String.join(
                ",",
                Integer.toString(epoch),
                Integer.toString(round),
                mode.label(),
                Long.toString(s.measuredStartMs()),
                Long.toString(s.endMs()),
                Long.toString(s.counts().total()),
                fmt(s.throughput()),
                fmt(s.responseTimeUs().avg()),
                fmt(s.responseTimeUs().p50()),
                fmt(s.responseTimeUs().p99()),
                Long.toString(s.missed())));
        slices.newLine();
        slices.flush();
    }

    private static BufferedWriter open(Path file, String header, int keepThroughEpoch) throws IOException {
        if (Files.exists(file)) {
            List<String> kept = new ArrayList<>();
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                if (finishedRow(line, header, keepThroughEpoch)) {
                    kept.add(line);
                }
            }
            List<String> all = new ArrayList<>();
            all.add(header);
            all.addAll(kept);
            Files.write(file, all, StandardCharsets.UTF_8);
        } else {
            Files.writeString(file, header + "\n", StandardCharsets.UTF_8);
        }
        return Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
    }

    /**
     * True for a complete row (the header's column count) of an epoch up to {@code keepThroughEpoch}. A row cut
     * short by a kill, or one of an unfinished epoch, is dropped: that epoch runs again.
     */
    static boolean finishedRow(String line, String header, int keepThroughEpoch) {
        String[] cells = line.split(",", -1);
        if (line.equals(header) || cells.length != header.split(",", -1).length) {
            return false;
        }
        try {
            return Integer.parseInt(cells[0]) <= keepThroughEpoch;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    void epochRow(
            int epoch,
            Mode mode,
            ValueSizeStats s,
            PhaseSummary extend,
            PhaseSummary run,
            Long snapshotMs,
            Long restoreMs)
            throws IOException {
        epochRow(epoch, mode, s, extend, run, snapshotMs, restoreMs, null);
    }

    /** One row; {@code quiesce} is null when no wait came before the run phase (quiesce/timeout 0). */
    void epochRow(
            int epoch,
            Mode mode,
            ValueSizeStats s,
            PhaseSummary extend,
            PhaseSummary run,
            Long snapshotMs,
            Long restoreMs,
            QuiescenceWait.Result quiesce)
            throws IOException {
        List<String> c = new ArrayList<>();
        c.add(Integer.toString(epoch));
        c.add(mode.label());
        c.add(Long.toString(s.records()));
        c.add(Long.toString(s.totalBytes()));
        c.add(Long.toString(s.min()));
        c.add(fmt(s.average()));
        c.add(Long.toString(s.p50()));
        c.add(Long.toString(s.p99()));
        c.add(Long.toString(s.max()));
        if (extend != null) {
            c.add(Long.toString(extend.counts().total()));
            c.add(Long.toString(extend.counts().skipped()));
            c.add(fmt(extend.throughput()));
            c.add(fmt(extend.responseTimeUs().avg()));
            c.add(fmt(extend.responseTimeUs().p99()));
        } else {
            c.addAll(List.of("", "", "", "", ""));
        }
        LatencySummary r = run == null ? null : run.responseTimeUs();
        c.add(run == null ? "" : Long.toString(run.counts().total()));
        c.add(run == null ? "" : fmt(run.throughput()));
        c.add(r == null ? "" : fmt(r.avg()));
        c.add(r == null ? "" : fmt(r.p50()));
        c.add(r == null ? "" : fmt(r.p99()));
        c.add(snapshotMs == null ? "" : snapshotMs.toString());
        c.add(restoreMs == null ? "" : restoreMs.toString());
        if (extend != null) {
            c.add(fmt(extend.goodput()));
            c.add(Long.toString(extend.counts().aborted()));
            c.add(Long.toString(extend.counts().error()));
        } else {
            c.addAll(List.of("", "", ""));
        }
        c.add(run == null ? "" : fmt(run.goodput()));
        c.add(run == null ? "" : Long.toString(run.counts().skipped()));
        c.add(run == null ? "" : Long.toString(run.counts().aborted()));
        c.add(run == null ? "" : Long.toString(run.counts().error()));
        c.add(run == null ? "" : Long.toString(run.missed()));
        ValueSizeStats rec = s.recordSizes();
        boolean haveRecords = rec.values() > 0;
        c.add(haveRecords ? Long.toString(rec.min()) : "");
        c.add(haveRecords ? fmt(rec.average()) : "");
        c.add(haveRecords ? Long.toString(rec.p50()) : "");
        c.add(haveRecords ? Long.toString(rec.p99()) : "");
        c.add(haveRecords ? Long.toString(rec.max()) : "");
        c.add(haveRecords ? Long.toString(s.recordsAtCap()) : "");
        for (TypeColumns t : runTypes) {
            PhaseSummary.TypeSummary ts = run == null || run.transactions() == null
                    ? null
                    : run.transactions().get(t.type());
            if (ts == null || ts.counts().total() == 0) {
                c.addAll(List.of("", "", "", ""));
            } else {
                c.add(Long.toString(ts.counts().total()));
                c.add(fmt(ts.throughput()));
                c.add(fmt(ts.responseTimeUs().avg()));
                c.add(fmt(ts.responseTimeUs().p99()));
            }
        }
        c.add(quiesce == null ? "" : Long.toString(quiesce.millis()));
        c.add(quiesce == null ? "" : Boolean.toString(quiesce.timedOut()));
        epochs.write(String.join(",", c));
        epochs.newLine();
        epochs.flush();
        if (quiesce != null && !quiesce.state().isEmpty()) {
            for (Map.Entry<String, Double> e : new TreeMap<>(quiesce.state()).entrySet()) {
                double v = e.getValue();
                String value = v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : fmt(v);
                engineState.write(epoch + "," + mode.label() + "," + e.getKey() + "," + value);
                engineState.newLine();
            }
            engineState.flush();
        }
    }

    /**
     * epochs.csv's header: {@link #BASE_HEADER}, then {@code run_<column>_ops, _throughput, _lat_avg_us,
     * _lat_p99_us} for each run type, in the given order, then {@link #QUIESCE_HEADER}.
     */
    static String epochsHeader(List<TypeColumns> runTypes) {
        StringBuilder b = new StringBuilder(BASE_HEADER);
        for (TypeColumns t : runTypes) {
            String p = ",run_" + t.column();
            b.append(p).append("_ops").append(p).append("_throughput");
            b.append(p).append("_lat_avg_us").append(p).append("_lat_p99_us");
        }
        return b.append(',').append(QUIESCE_HEADER).toString();
    }

    void sizeRows(int epoch, ValueSizeStats s) throws IOException {
        for (Map.Entry<Long, Long> b : s.buckets().entrySet()) {
            sizes.write(epoch + "," + b.getKey() + "," + ValueSizeStats.bucketHigh(b.getKey()) + "," + b.getValue());
            sizes.newLine();
        }
        sizes.flush();
    }

    /**
     * One phase's latency by size ({@code part}: extend or run), written when it ran to its end, so an epoch's
     * rows are complete for every phase it finished.
     */
    void sizeLatencyRows(int epoch, Mode mode, String part, List<SizeLatency.Row> rows) throws IOException {
        for (SizeLatency.Row r : rows) {
            latencyBySize.write(epoch + "," + mode.label() + "," + part + "," + r.csv());
            latencyBySize.newLine();
        }
        latencyBySize.flush();
    }

    private static String fmt(Number n) {
        if (n == null) {
            return "";
        }
        if (n instanceof Long || n instanceof Integer) {
            return n.toString();
        }
        return String.format(Locale.ROOT, "%.3f", n.doubleValue());
    }

    @Override
    public void close() throws IOException {
        try (BufferedWriter e = epochs;
                BufferedWriter s = sizes;
                BufferedWriter l = latencyBySize;
                BufferedWriter g = engineState;
                BufferedWriter c = slices;
                BufferedWriter m = maintenance) {
            // closed in reverse order, each even when another fails
        }
    }
}
