package org.ivsbench.stats;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

import org.HdrHistogram.Histogram;

/** Appends one row per window x phase x type (plus ALL) to samples.csv, flushed every window. */
public final class SamplesCsvWriter implements AutoCloseable {
    public static final String HEADER = "time_ms,window_ms,phase,type,ok,skipped,aborted,error,missed,throughput,"
            + "goodput,lat_avg_us,lat_p50_us,lat_p95_us,lat_p99_us,lat_max_us,svc_avg_us,svc_p99_us,measured_ms,"
            + "missed_late_p50_us,missed_late_max_us";

    private final BufferedWriter out;

    public SamplesCsvWriter(Path file) throws IOException {
        out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
        out.write(HEADER);
        out.newLine();
        out.flush();
    }

    public synchronized void write(Window w) throws IOException {
        Histogram allResponse = new Histogram(3);
        Histogram allService = new Histogram(3);
        OperationCounts all = new OperationCounts(0, 0, 0, 0);
        for (Window.TypeRow row : w.rows()) {
            if (row.counts().total() > 0) {
                writeRow(w, row.type(), row.counts(), 0, row.response(), row.service(), null);
                allResponse.add(row.response());
                allService.add(row.service());
                all = all.plus(row.counts());
            }
        }
        writeRow(w, "ALL", all, w.missed(), allResponse, allService, w.missedLateness());
        out.flush();
    }

    private void writeRow(
            Window w,
            String type,
            OperationCounts c,
            long missed,
            Histogram resp,
            Histogram svc,
            Histogram missedLateness)
            throws IOException {
        // Rates are over the part of the window the phase was measured in, so a phase's first and last
        // (partial) windows are not diluted; with none (warmup, stragglers after the end) there is no rate.
        double seconds = w.measuredMs() / 1000.0;
        StringBuilder sb = new StringBuilder(160);
        sb.append(w.startMs())
                .append(',')
                .append(w.windowMs())
                .append(',')
                .append(w.phase())
                .append(',')
                .append(type)
                .append(',')
                .append(c.ok())
                .append(',')
                .append(c.skipped())
                .append(',')
                .append(c.aborted())
                .append(',')
                .append(c.error())
                .append(',')
                .append(missed)
                .append(',')
                .append(rate(c.total(), seconds))
                .append(',')
                .append(rate(c.ok(), seconds))
                .append(',');
        if (resp.getTotalCount() > 0) {
            sb.append(num(resp.getMean()))
                    .append(',')
                    .append(resp.getValueAtPercentile(50))
                    .append(',')
                    .append(resp.getValueAtPercentile(95))
                    .append(',')
                    .append(resp.getValueAtPercentile(99))
                    .append(',')
                    .append(resp.getMaxValue())
                    .append(',');
        } else {
            sb.append(",,,,,");
        }
        if (svc.getTotalCount() > 0) {
            sb.append(num(svc.getMean())).append(',').append(svc.getValueAtPercentile(99));
        } else {
            sb.append(',');
        }
        sb.append(',').append(w.measuredMs()).append(',');
        if (missedLateness != null && missedLateness.getTotalCount() > 0) {
            sb.append(missedLateness.getValueAtPercentile(50)).append(',').append(missedLateness.getMaxValue());
        } else {
            sb.append(',');
        }
        out.write(sb.toString());
        out.newLine();
    }

    private static String rate(long count, double seconds) {
        return seconds > 0 ? num(count / seconds) : "";
    }

    static String num(double v) {
        return String.format(Locale.ROOT, "%.3f", v);
    }

    @Override
    public synchronized void close() throws IOException {
        out.close();
    }
}
