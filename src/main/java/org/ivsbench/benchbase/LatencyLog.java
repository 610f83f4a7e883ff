package org.ivsbench.benchbase;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;

import org.ivsbench.stats.HlogWriter;

/**
 * A run's latency.hlog read back: response-time histograms (microseconds) merged over the whole run, per window
 * start, and per transaction type and window start, from the tagged intervals ({@code p<phase>.<type>}; the
 * untagged all-types interval of each window is skipped); phases are merged, as BenchBase's files do not separate
 * them.
 */
final class LatencyLog {
    final Histogram total = newHistogram();
    final TreeMap<Long, Histogram> byWindow = new TreeMap<>();
    final Map<String, TreeMap<Long, Histogram>> byTypeWindow = new LinkedHashMap<>();

    static LatencyLog read(Path hlog) throws IOException {
        LatencyLog log = new LatencyLog();
        HistogramLogReader reader = new HistogramLogReader(hlog.toFile());
        try {
            EncodableHistogram e;
            while ((e = reader.nextIntervalHistogram()) != null) {
                if (!(e instanceof Histogram h) || HlogWriter.isAllTypes(h)) {
                    continue; // the untagged all-types interval repeats the window's tagged ones
                }
                String tag = h.getTag();
                int dot = tag.indexOf('.');
                String type = dot < 0 ? tag : tag.substring(dot + 1);
                long start = h.getStartTimeStamp();
                log.total.add(h);
                log.byWindow.computeIfAbsent(start, k -> newHistogram()).add(h);
                log.byTypeWindow
                        .computeIfAbsent(type, k -> new TreeMap<>())
                        .computeIfAbsent(start, k -> newHistogram())
                        .add(h);
            }
        } finally {
            reader.close();
        }
        return log;
    }

    static Histogram newHistogram() {
        return new Histogram(3); // auto-resizing, as the writer's
    }
}
