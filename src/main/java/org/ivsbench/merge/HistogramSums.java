package org.ivsbench.merge;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.HdrHistogram.HistogramLogWriter;

/**
 * Tagged interval histograms of several hlog files added per (interval start, tag): the shards' latency.hlog
 * windows, or their histograms.hlog phase totals. Interval starts are snapped to the window grid, because the
 * log's seconds-with-milliseconds text can read back one millisecond early. Untagged intervals (latency.hlog's
 * all-types sum of each window, docs/results-format.md) are not read: they repeat the tagged ones; with
 * {@code allTypes} the written log gets them again, as the sum of each interval start's tagged histograms.
 */
final class HistogramSums {
    private final long gridMs;
    private final TreeMap<Long, Map<String, Histogram>> byStart = new TreeMap<>();
    private final Map<Long, Long> endByStart = new TreeMap<>();
    private final boolean allTypes;

    /**
     * {@code gridMs}: the window length the interval starts are multiples of (1 for no snapping); {@code allTypes}:
     * write an untagged sum per interval start after its tagged histograms (latency.hlog's format).
     */
    HistogramSums(long gridMs, boolean allTypes) {
        this.gridMs = Math.max(1, gridMs);
        this.allTypes = allTypes;
    }

    void add(Path hlog) throws IOException {
        if (!Files.isRegularFile(hlog)) {
            return;
        }
        HistogramLogReader reader = new HistogramLogReader(hlog.toFile());
        try {
            EncodableHistogram e;
            while ((e = reader.nextIntervalHistogram()) != null) {
                if (e instanceof Histogram h && h.getTag() != null) {
                    long start = Math.round(h.getStartTimeStamp() / (double) gridMs) * gridMs;
                    String tag = h.getTag();
                    byStart.computeIfAbsent(start, k -> new LinkedHashMap<>())
                            .computeIfAbsent(tag, k -> new Histogram(3))
                            .add(h);
                    endByStart.merge(start, Math.max(start, h.getEndTimeStamp()), Math::max);
                }
            }
        } finally {
            reader.close();
        }
    }

    /** The sum over every interval of the histograms whose tag is {@code tag} exactly. */
    Histogram total(String tag) {
        Histogram sum = new Histogram(3);
        byStart.values().forEach(m -> {
            Histogram h = m.get(tag);
            if (h != null) {
                sum.add(h);
            }
        });
        return sum;
    }

    /** The sum over every interval and every tag that starts with {@code prefix} and ends with {@code suffix}. */
    Histogram totalMatching(String prefix, String suffix) {
        Histogram sum = new Histogram(3);
        byStart.values()
                .forEach(m -> m.forEach((tag, h) -> {
                    if (tag.startsWith(prefix) && tag.endsWith(suffix)) {
                        sum.add(h);
                    }
                }));
        return sum;
    }

    /** The added histogram of one interval and tag, or null. */
    Histogram at(long startMs, String tag) {
        Map<String, Histogram> m = byStart.get(startMs);
        return m == null ? null : m.get(tag);
    }

    /** The added histograms of one interval whose tag starts with {@code prefix}. */
    Histogram atWithPrefix(long startMs, String prefix) {
        Histogram sum = new Histogram(3);
        Map<String, Histogram> m = byStart.get(startMs);
        if (m != null) {
            m.forEach((tag, h) -> {
                if (tag.startsWith(prefix)) {
                    sum.add(h);
                }
            });
        }
        return sum;
    }

    boolean isEmpty() {
        return byStart.isEmpty();
    }

    /** Writes the sums as one interval log starting at {@code baseMs} (not after the first interval). */
    void write(Path file, long baseMs, String comment) throws IOException {
        try (PrintStream stream = new PrintStream(file.toFile(), StandardCharsets.US_ASCII)) {
            HistogramLogWriter log = new HistogramLogWriter(stream);
            log.outputComment(comment);
            log.outputLogFormatVersion();
            log.outputStartTime(baseMs);
            log.outputBaseTime(baseMs);
            log.setBaseTime(baseMs);
            log.outputLegend();
            byStart.forEach((start, tags) -> {
                long end = endByStart.getOrDefault(start, start);
                Histogram all = new Histogram(3);
                tags.forEach((tag, h) -> {
                    Histogram copy = h.copy();
                    copy.setTag(tag);
                    copy.setStartTimeStamp(start);
                    copy.setEndTimeStamp(end);
                    log.outputIntervalHistogram(copy);
                    all.add(h);
                });
                if (allTypes && all.getTotalCount() > 0) {
                    all.setStartTimeStamp(start);
                    all.setEndTimeStamp(end);
                    log.outputIntervalHistogram(all);
                }
            });
        }
    }

    long firstStart(long orElse) {
        return byStart.isEmpty() ? orElse : byStart.firstKey();
    }
}
