package org.ivsbench.stats;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * latency_by_size.csv of a run folder (docs/results-format.md): each phase's response times by transaction type
 * and log2 size bucket of the value touched, measured operations only. Rewritten whole and atomically with the
 * summary, so a reader never sees half a file and the counts agree with summary.json's.
 */
final class LatencyBySizeCsv {
    static final String HEADER = "phase," + SizeLatency.Row.CSV_HEADER;

    private LatencyBySizeCsv() {}

    static void write(Path file, List<PhaseStats> phases) throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add(HEADER);
        for (PhaseStats p : phases) {
            for (SizeLatency.Row r : p.latencyBySize()) {
                lines.add(p.index() + "," + r.csv());
            }
        }
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.write(tmp, lines, StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
