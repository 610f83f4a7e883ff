package org.ivsbench.monitor;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Converts a dstat / dool {@code --output} CSV into monitor.csv (source {@code dstat}), for hosts where the
 * agent cannot run but dstat or dool can.
 *
 * <p>The CSV has a preamble ("Dstat 0.7.4 CSV output", Author, Host, Cmdline/Command, Date), a blank line, a
 * group row ("total cpu usage", "memory usage", "dsk/total", "net/eth0", ... each followed by empty cells for
 * the rest of the group) and a column row ("usr","sys","idl","wai",...). Values are raw: percentages, bytes,
 * bytes per second. Mapped groups: total cpu usage (hiq/siq count as sys, like the /proc sampler), memory usage
 * (cached = buff + cach), dsk/total and dsk/&lt;dev&gt; (bytes/s), io/total and io/&lt;dev&gt; (ops/s),
 * net/total (as interface {@code total}) and net/&lt;iface&gt;. Everything else is ignored.
 *
 * <p>Time: the {@code epoch} column when present (run dstat/dool with {@code --epoch}); otherwise the system
 * {@code time} column ("dd-MM HH:mm:ss", year from the Date line, this host's time zone). dstat prints a row
 * after measuring the interval before it, so a row goes to the window holding the middle of that interval.
 * The first data row is dstat's average since boot and is skipped.
 */
public final class DstatImporter {
    private static final DateTimeFormatter DSTAT_TIME = DateTimeFormatter.ofPattern("dd-MM HH:mm:ss yyyy", Locale.ROOT);

    private DstatImporter() {}

    /** Converts {@code dstatCsv} into {@code monitorCsv} (the import-dstat command, cli/ImportDstatCommand). */
    public static void importCsv(Path dstatCsv, Path monitorCsv) throws IOException {
        List<String> lines = Files.readAllLines(dstatCsv, StandardCharsets.UTF_8);
        String year = null;
        int columnRow = -1;
        for (int i = 0; i < lines.size(); i++) {
            List<String> cells = parse(lines.get(i));
            for (int c = 0; c + 1 < cells.size(); c++) {
                if (cells.get(c).equals("Date:")) {
                    String[] d = cells.get(c + 1).trim().split("\\s+"); // "22 Nov 2026 20:36:31 UTC"
                    year = d.length >= 3 ? d[2] : null;
                }
            }
            if (i > 0 && !cells.isEmpty() && isColumnRow(cells)) {
                columnRow = i;
                break;
            }
        }
        if (columnRow < 1) {
            throw new IOException(
                    dstatCsv + ": no dstat/dool column header (a row of \"usr\",\"sys\",... under a group row)");
        }
        List<String> groups = forwardFill(parse(lines.get(columnRow - 1)));
        List<String> names = parse(lines.get(columnRow));
        String[] column = new String[names.size()];
        int epoch = -1;
        int time = -1;
        for (int c = 0; c < names.size(); c++) {
            String group = c < groups.size() ? groups.get(c) : "";
            String name = names.get(c);
            if (name.equals("epoch")) {
                epoch = c;
            } else if (name.equals("time") && group.equals("system")) {
                time = c;
            } else {
                column[c] = map(group, name);
            }
        }
        if (epoch < 0 && (time < 0 || year == null)) {
            throw new IOException(
                    dstatCsv + ": no epoch column (run dstat/dool with --epoch) and no system time column");
        }

        List<Long> times = new ArrayList<>();
        List<List<String>> rows = new ArrayList<>();
        for (String line : lines.subList(columnRow + 1, lines.size())) {
            if (line.isBlank()) {
                continue;
            }
            List<String> cells = parse(line);
            long t;
            try {
                t = epoch >= 0
                        ? Math.round(Double.parseDouble(cells.get(epoch)) * 1000)
                        : LocalDateTime.parse(cells.get(time) + " " + year, DSTAT_TIME)
                                .atZone(ZoneId.systemDefault())
                                .toInstant()
                                .toEpochMilli();
            } catch (RuntimeException e) {
                continue; // a repeated header or a truncated last line
            }
            times.add(t);
            rows.add(cells);
        }
        long interval = interval(times);
        try (MonitorCsvWriter out = new MonitorCsvWriter(monitorCsv)) {
            List<String> declared = new ArrayList<>();
            for (String c : column) {
                if (c != null && !declared.contains(c)) {
                    declared.add(c);
                }
            }
            out.declare(declared);
            long lastWindow = Long.MIN_VALUE;
            for (int r = 1; r < rows.size(); r++) { // row 0: averages since boot
                long window = Math.floorDiv(times.get(r) - interval / 2, interval) * interval;
                if (window <= lastWindow) {
                    continue;
                }
                Map<String, Double> metrics = new LinkedHashMap<>();
                List<String> cells = rows.get(r);
                for (int c = 0; c < column.length && c < cells.size(); c++) {
                    if (column[c] == null || cells.get(c).isBlank()) {
                        continue;
                    }
                    try {
                        // Several source columns may feed one (hiq + siq + sys; buff + cach): they add up.
                        metrics.merge(column[c], Double.parseDouble(cells.get(c)), Double::sum);
                    } catch (NumberFormatException e) {
                        // dstat writes nothing useful in a non-numeric cell
                    }
                }
                out.write(window, interval, -1, "dstat", metrics);
                lastWindow = window;
            }
        }
    }

    /** The median spacing of rows, rounded to 100 ms (dstat's delay is whole seconds; rows jitter by ms). */
    private static long interval(List<Long> times) {
        if (times.size() < 2) {
            return 1000;
        }
        long[] d = new long[times.size() - 1];
        for (int i = 1; i < times.size(); i++) {
            d[i - 1] = times.get(i) - times.get(i - 1);
        }
        Arrays.sort(d);
        return Math.max(100, Math.round(d[d.length / 2] / 100.0) * 100);
    }

    private static boolean isColumnRow(List<String> cells) {
        for (String c : cells) {
            if (c.equals("usr") || c.equals("used") || c.equals("recv") || c.equals("writ")) {
                return true;
            }
        }
        return false;
    }

    private static String map(String group, String name) {
        if (group.equals("total cpu usage") || group.equals("total cpu")) {
            return switch (name) {
                case "usr" -> "os.cpu.usr_pct";
                case "sys", "hiq", "siq" -> "os.cpu.sys_pct";
                case "idl" -> "os.cpu.idle_pct";
                case "wai" -> "os.cpu.iowait_pct";
                case "stl" -> "os.cpu.steal_pct";
                default -> null;
            };
        }
        if (group.equals("memory usage")) {
            return switch (name) {
                case "used" -> "os.mem.used_bytes";
                case "free" -> "os.mem.free_bytes";
                case "buff", "cach" -> "os.mem.cached_bytes";
                case "avai", "avail" -> "os.mem.available_bytes";
                default -> null;
            };
        }
        if (group.startsWith("dsk/") || group.startsWith("io/")) {
            String dev = group.substring(group.indexOf('/') + 1);
            String prefix = dev.equals("total") ? "os.disk." : "os.disk." + dev + ".";
            boolean bytes = group.startsWith("dsk/");
            return switch (name) {
                case "read" -> prefix + (bytes ? "read_bytes_ps" : "read_ops_ps");
                case "writ" -> prefix + (bytes ? "write_bytes_ps" : "write_ops_ps");
                default -> null;
            };
        }
        if (group.startsWith("net/")) {
            String iface = group.substring(4);
            return switch (name) {
                case "recv" -> "os.net." + iface + ".rx_bytes_ps";
                case "send" -> "os.net." + iface + ".tx_bytes_ps";
                default -> null;
            };
        }
        return null;
    }

    private static List<String> forwardFill(List<String> groups) {
        List<String> out = new ArrayList<>(groups.size());
        String current = "";
        for (String g : groups) {
            if (!g.isEmpty()) {
                current = g;
            }
            out.add(current);
        }
        return out;
    }

    /** One CSV line: fields optionally in double quotes, "" inside quotes is a quote. */
    static List<String> parse(String line) {
        List<String> cells = new ArrayList<>();
        StringBuilder cell = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char ch = line.charAt(i);
            if (quoted) {
                if (ch == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    cell.append('"');
                    i++;
                } else if (ch == '"') {
                    quoted = false;
                } else {
                    cell.append(ch);
                }
            } else if (ch == '"') {
                quoted = true;
            } else if (ch == ',') {
                cells.add(cell.toString().trim());
                cell.setLength(0);
            } else {
                cell.append(ch);
            }
        }
        cells.add(cell.toString().trim());
        return cells;
    }
}
