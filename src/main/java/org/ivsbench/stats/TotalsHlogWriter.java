package org.ivsbench.stats;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

/**
 * histograms.hlog: each phase's whole-phase histograms that latency.hlog (response times per window) does not hold
 * - service time per type, start lag, missed arrivals' lateness - tagged {@code p<phase>.<TYPE>.service},
 * {@code p<phase>.startLag}, {@code p<phase>.missedLateness}, so that the merge of sharded runs adds histograms
 * for every percentile summary.json reports. Rewritten atomically with the summary.
 */
final class TotalsHlogWriter {
    private TotalsHlogWriter() {}

    static void write(Path file, List<PhaseStats> phases, long baseMs) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try (PrintStream stream = new PrintStream(tmp.toFile(), StandardCharsets.US_ASCII)) {
            HistogramLogWriter log = new HistogramLogWriter(stream);
            HlogWriter.writeHeader(
                    log,
                    "ivsbench whole-phase histograms (microseconds): p<phase>.<type>.service,"
                            + " p<phase>.startLag, p<phase>.missedLateness",
                    baseMs);
            for (PhaseStats p : phases) {
                long start = Math.max(baseMs, p.summaryStartMs());
                for (Map.Entry<String, Histogram> e : p.totalHistograms().entrySet()) {
                    Histogram h = e.getValue();
                    h.setTag("p" + p.index() + "." + e.getKey());
                    h.setStartTimeStamp(start);
                    h.setEndTimeStamp(start);
                    log.outputIntervalHistogram(h);
                }
            }
        }
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
