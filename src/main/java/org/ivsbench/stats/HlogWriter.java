package org.ivsbench.stats;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

/**
 * latency.hlog: per window, one tagged interval histogram (response time, µs) per phase x type, tagged
 * {@code p<phase>.<type>}, then one untagged interval with all of them added (every phase and type), which is what
 * HdrHistogram's tools read when no tag is asked for. Readers that add the tagged intervals must skip the untagged
 * one ({@link #isAllTypes}). {@code baseMs} must not be after the start of any interval written: it is written as
 * the log's {@code #[StartTime:} and {@code #[BaseTime:} (interval timestamps are relative to it), and standard
 * readers drop intervals that begin before the StartTime.
 */
public final class HlogWriter implements AutoCloseable {
    private final PrintStream stream;
    private final HistogramLogWriter log;
    private final long baseMs;

    public HlogWriter(Path file, long baseMs) throws IOException {
        this.stream = new PrintStream(file.toFile(), StandardCharsets.US_ASCII);
        this.log = new HistogramLogWriter(stream);
        this.baseMs = baseMs;
        writeHeader(
                log, "ivsbench response time (microseconds) per window: tagged p<phase>.<type>, untagged all", baseMs);
        stream.flush();
    }

    /**
     * The header every ivsbench interval log has: a comment, the format version, StartTime and BaseTime (both
     * {@code baseMs}; timestamps are written relative to it) and the legend.
     */
    public static void writeHeader(HistogramLogWriter log, String comment, long baseMs) {
        log.outputComment(comment);
        log.outputLogFormatVersion();
        log.outputStartTime(baseMs);
        log.outputBaseTime(baseMs);
        log.setBaseTime(baseMs);
        log.outputLegend();
    }

    /** True for the untagged all-types interval of a window, which repeats the tagged ones of the same window. */
    public static boolean isAllTypes(Histogram h) {
        return h.getTag() == null;
    }

    /** One phase's window. */
    public void write(Window w) {
        write(List.of(w));
    }

    /**
     * The windows of the phases open in one window (they share its start and length): the tagged intervals, then
     * the untagged sum of them per window start. Nothing for a window in which no operation completed.
     */
    public synchronized void write(Collection<Window> windows) {
        Map<Long, Histogram> all = new LinkedHashMap<>();
        for (Window w : windows) {
            long end = w.startMs() + w.windowMs();
            for (Window.TypeRow row : w.rows()) {
                Histogram h = row.response();
                if (h.getTotalCount() == 0) {
                    continue;
                }
                h.setTag("p" + w.phase() + "." + row.type());
                h.setStartTimeStamp(w.startMs());
                h.setEndTimeStamp(end);
                log.outputIntervalHistogram(h);
                Histogram sum = all.computeIfAbsent(w.startMs(), k -> new Histogram(3));
                sum.add(h);
                sum.setStartTimeStamp(w.startMs());
                sum.setEndTimeStamp(Math.max(end, sum.getEndTimeStamp()));
            }
        }
        all.values().forEach(log::outputIntervalHistogram);
        stream.flush();
    }

    @Override
    public synchronized void close() {
        stream.close();
    }

    long baseMs() {
        return baseMs;
    }
}
