package org.ivsbench.stats;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * tenants.csv: the tenants' samples.csv {@code ALL} rows on one timeline. Every tenant's windows are multiples
 * of the same window length on the same wall clock, so equal {@code time_ms} is the same window for all of
 * them; {@code active_tenants} counts the tenants that completed operations in it, which is what makes a window
 * "solo" (1) or "overlapping" (2 or more) for the report.
 */
public final class TenantTimeline {
    public static final String FILE = "tenants.csv";
    static final List<String> COPIED = List.of(
            "time_ms",
            "window_ms",
            "phase",
            "ok",
            "skipped",
            "aborted",
            "error",
            "missed",
            "throughput",
            "goodput",
            "lat_avg_us",
            "lat_p50_us",
            "lat_p95_us",
            "lat_p99_us",
            "lat_max_us",
            "measured_ms");
    public static final String HEADER =
            "time_ms,window_ms,tenant," + String.join(",", COPIED.subList(2, COPIED.size())) + ",active_tenants";

    private TenantTimeline() {}

    private record Row(long timeMs, String tenant, int phase, List<String> cells, long operations) {}

    /**
     * Writes {@code dir/tenants.csv} from {@code dir/<tenant>/samples.csv} of each tenant (a tenant without one,
     * e.g. one that failed before its first window, adds no rows). Written to a temporary file and moved, so a
     * reader never sees half of it.
     */
    public static Path write(Path dir, List<String> tenants) throws IOException {
        List<Row> rows = new ArrayList<>();
        for (String tenant : tenants) {
            rows.addAll(read(dir.resolve(tenant).resolve("samples.csv"), tenant));
        }
        Map<Long, Set<String>> active = new HashMap<>();
        for (Row r : rows) {
            if (r.operations() > 0) {
                active.computeIfAbsent(r.timeMs(), k -> new HashSet<>()).add(r.tenant());
            }
        }
        rows.sort(Comparator.comparingLong(Row::timeMs)
                .thenComparing(r -> tenants.indexOf(r.tenant()))
                .thenComparingInt(Row::phase));
        Path file = dir.resolve(FILE);
        Path tmp = dir.resolve(FILE + ".tmp");
        try (BufferedWriter w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
            w.write(HEADER);
            w.write('\n');
            for (Row r : rows) {
                List<String> cells = r.cells();
                w.write(cells.get(0) + "," + cells.get(1) + "," + r.tenant());
                for (String c : cells.subList(2, cells.size())) {
                    w.write("," + c);
                }
                w.write("," + active.getOrDefault(r.timeMs(), Set.of()).size());
                w.write('\n');
            }
        }
        return Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static List<Row> read(Path samples, String tenant) throws IOException {
        List<String> lines;
        try {
            lines = Files.readAllLines(samples, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return List.of();
        }
        if (lines.isEmpty()) {
            return List.of();
        }
        List<String> header = List.of(lines.get(0).split(",", -1));
        int[] at = new int[COPIED.size()];
        for (int i = 0; i < at.length; i++) {
            at[i] = header.indexOf(COPIED.get(i));
            if (at[i] < 0) {
                throw new IOException(samples + ": no column " + COPIED.get(i));
            }
        }
        int type = header.indexOf("type");
        List<Row> rows = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",", -1);
            if (line.isEmpty() || f.length < header.size() || !"ALL".equals(f[type])) {
                continue;
            }
            List<String> cells = new ArrayList<>(at.length);
            for (int i : at) {
                cells.add(f[i]);
            }
            long ops = 0;
            for (String c : List.of("ok", "skipped", "aborted", "error")) {
                ops += Long.parseLong(f[header.indexOf(c)]);
            }
            rows.add(new Row(Long.parseLong(cells.get(0)), tenant, Integer.parseInt(cells.get(2)), cells, ops));
        }
        return rows;
    }
}
