package org.ivsbench.stats;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

/**
 * latency.hlog: one tagged interval histogram (response time, µs) per window x phase x type. {@code baseMs} must
 * not be after the start of any interval written: it is the log's StartTime and BaseTime, and standard readers
 * drop intervals that begin before it.
 */
public final class HlogWriter implements AutoCloseable {
    private final PrintStream stream;
    private final HistogramLogWriter log;
    private final long baseMs;

    public HlogWriter(Path file, long baseMs) throws IOException {
        this.stream = new PrintStream(file.toFile(), StandardCharsets.US_ASCII);
        this.log = new HistogramLogWriter(stream);
        this.baseMs = baseMs;
        log.outputComment("ivsbench response time (microseconds) per window, tagged p<phase>.<type>");
        log.outputLogFormatVersion();
        log.outputStartTime(baseMs);
        log.setBaseTime(baseMs);
        log.outputLegend();
        stream.flush();
    }

    public synchronized void write(Window w) {
        for (Window.TypeRow row : w.rows()) {
            Histogram h = row.response();
            if (h.getTotalCount() == 0) {
                continue;
            }
            h.setTag("p" + w.phase() + "." + row.type());
            h.setStartTimeStamp(w.startMs());
            h.setEndTimeStamp(w.startMs() + w.windowMs());
            log.outputIntervalHistogram(h);
        }
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
