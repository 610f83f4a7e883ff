package org.ivsbench.faults;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.ivsbench.stats.SamplesCsvWriter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Reads a results folder back (docs/results-format.md) and checks that it is well formed. */
public final class Results {
    /** One samples.csv row: the columns the tests look at. */
    public record Row(
            long timeMs,
            long windowMs,
            int phase,
            String type,
            long ok,
            long skipped,
            long aborted,
            long error,
            long missed) {
        public long total() {
            return ok + skipped + aborted + error;
        }
    }

    private final Path dir;

    public Results(Path dir) {
        this.dir = dir;
    }

    public Path dir() {
        return dir;
    }

    public JsonNode summary() throws IOException {
        return new ObjectMapper().readTree(dir.resolve("summary.json").toFile());
    }

    /** Every row of samples.csv; fails unless the header and every row have the documented shape. */
    public List<Row> samples() throws IOException {
        List<String> lines = Files.readAllLines(dir.resolve("samples.csv"), StandardCharsets.UTF_8);
        assertTrue(!lines.isEmpty(), "samples.csv has a header");
        assertEquals(SamplesCsvWriter.HEADER, lines.get(0), "samples.csv header");
        int columns = SamplesCsvWriter.HEADER.split(",", -1).length;
        List<Row> rows = new ArrayList<>();
        for (int i = 1; i < lines.size(); i++) {
            String[] c = lines.get(i).split(",", -1);
            assertEquals(columns, c.length, "columns of samples.csv line " + (i + 1) + ": " + lines.get(i));
            rows.add(new Row(
                    Long.parseLong(c[0]),
                    Long.parseLong(c[1]),
                    Integer.parseInt(c[2]),
                    c[3],
                    Long.parseLong(c[4]),
                    Long.parseLong(c[5]),
                    Long.parseLong(c[6]),
                    Long.parseLong(c[7]),
                    Long.parseLong(c[8])));
        }
        return rows;
    }

    public List<Row> allRows() throws IOException {
        return samples().stream().filter(r -> r.type().equals("ALL")).toList();
    }

    /** The files every run leaves, whatever happened during it. */
    public void assertFilesPresent() {
        for (String f : List.of("summary.json", "samples.csv", "latency.hlog", "config.xml", "environment.json")) {
            assertTrue(Files.isRegularFile(dir.resolve(f)), f + " in " + dir);
        }
    }

    /** Phase operations and missed arrivals in summary.json equal the sums over samples.csv's ALL rows. */
    public void assertSummaryMatchesSamples() throws IOException {
        JsonNode summary = summary();
        List<Row> all = allRows();
        for (JsonNode phase : summary.get("phases")) {
            int index = phase.get("index").asInt();
            long ops = all.stream()
                    .filter(r -> r.phase() == index)
                    .mapToLong(Row::total)
                    .sum();
            long missed = all.stream()
                    .filter(r -> r.phase() == index)
                    .mapToLong(Row::missed)
                    .sum();
            assertEquals(
                    phase.get("operations").asLong(), ops, "phase " + index + ": summary operations vs samples.csv");
            assertEquals(phase.get("missed").asLong(), missed, "phase " + index + ": summary missed vs samples.csv");
            for (String outcome : List.of("ok", "skipped", "aborted", "error")) {
                long sum = 0;
                for (JsonNode t : phase.get("transactions")) {
                    sum += t.get("counts").get(outcome).asLong();
                }
                assertEquals(
                        phase.get("counts").get(outcome).asLong(),
                        sum,
                        "phase " + index + ": " + outcome + " over transaction types");
            }
        }
    }
}
