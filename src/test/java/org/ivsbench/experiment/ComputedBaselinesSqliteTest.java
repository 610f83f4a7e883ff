package org.ivsbench.experiment;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;
import org.ivsbench.db.Targets;
import org.ivsbench.testsupport.RunHarness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A baseline volume sweep that loads each epoch's volume directly (experiment/baselines = computed) gives the
 * baselines the volumes and record counts a four-mode run of the same config measured after its real extends,
 * as long as no extend reached the cap, and runs no extend at all.
 */
class ComputedBaselinesSqliteTest {
    /** epochs.csv's size columns: records .. value_max, and record_min .. records_at_cap. */
    private static final List<String> SIZE_COLUMNS = List.of(
            "records",
            "data_bytes",
            "value_min",
            "value_avg",
            "value_p50",
            "value_p99",
            "value_max",
            "record_min",
            "record_avg",
            "record_p50",
            "record_p99",
            "record_max",
            "records_at_cap");

    @TempDir
    Path tmp;

    @Test
    void computedVolumesEqualTheMeasuredOnesOfAFourModeRun() throws Exception {
        Path together = run("all", "main,clean,average-baseline,spread-baseline", "");
        List<List<String>> measured = rows(together);
        // The precondition of the comparison: no extend of the four-mode run was skipped at the cap.
        for (List<String> row : measured) {
            if (row.get(1).equals("main")) {
                assertEquals("0", cell(row, "extend_skipped"), "epoch " + row.get(0));
            }
        }
        List<String> fromExtends = sizes(
                measured.stream().filter(r -> r.get(1).endsWith("baseline")).toList());

        List<Long> primaryBytes = new ArrayList<>();
        Path apart =
                run("computed", "average-baseline,spread-baseline", "<baselines>computed</baselines>", primaryBytes);
        List<String> computed = sizes(rows(apart));
        assertEquals(6, computed.size(), computed.toString());
        assertEquals(fromExtends, computed);
        // The volume grows (the extends are counted), 300 extends of 100 bytes an epoch on 200,000 loaded bytes.
        assertTrue(computed.get(0).startsWith("1,average-baseline,200,230000,"), computed.get(0));
        assertTrue(computed.get(5).startsWith("3,spread-baseline,290,290000,"), computed.get(5));

        // No extend ran: no main folder, no phase wrote or extended, and the primary kept its loaded 200,000 bytes.
        assertEquals(List.of(200_000L, 200_000L, 200_000L, 200_000L, 200_000L, 200_000L), primaryBytes);
        ObjectMapper json = new ObjectMapper();
        int phases = 0;
        try (Stream<Path> s = Files.walk(apart)) {
            for (Path summary : s.filter(p -> p.getFileName().toString().equals("summary.json"))
                    .toList()) {
                assertFalse(apart.relativize(summary).toString().contains("main"), summary.toString());
                for (JsonNode phase : json.readTree(summary.toFile()).get("phases")) {
                    phases++;
                    assertEquals(0, phase.get("bytesWritten").asLong(), summary.toString());
                    assertTrue(
                            phase.get("transactions")
                                            .path("ExtendRecord")
                                            .path("operations")
                                            .asLong()
                                    == 0,
                            summary.toString());
                }
            }
        }
        assertEquals(6, phases, "two baselines in each of 3 epochs");
        try (Stream<Path> s = Files.list(apart.resolve("epoch-001"))) {
            assertEquals(
                    List.of("average-baseline", "spread-baseline"),
                    s.map(p -> p.getFileName().toString()).sorted().toList());
        }
    }

    private Path run(String name, String modes, String more) throws Exception {
        return run(name, modes, more, new ArrayList<>());
    }

    /** Runs the experiment; {@code primaryBytes} gets the primary's data bytes whenever a baseline is ready. */
    private Path run(String name, String modes, String more, List<Long> primaryBytes) throws Exception {
        Path own = Files.createDirectories(tmp.resolve(name));
        String xml = Files.readString(Path.of("config/experiments/ycsbivs_quick_sqlite.xml"))
                .replace("jdbc:sqlite:results/ycsbivs_quick.db", "jdbc:sqlite:" + own.resolve("q.db"))
                .replaceAll("<epochs>\\d+</epochs>", "<epochs>3</epochs>" + more)
                .replaceAll("<modes>[^<]*</modes>", "<modes>" + modes + "</modes>")
                .replaceAll("<recordcount>\\d+</recordcount>", "<recordcount>200</recordcount>")
                .replaceAll("<count>\\d+</count>", "<count>300</count>")
                .replaceAll("<warmup>\\d+</warmup>", "<warmup>0</warmup>");
        BenchmarkConfig config = RunHarness.config(own, xml);
        ExperimentListener listener = new ExperimentListener() {
            @Override
            public void freshReady(int epoch, Mode mode, Target fresh, String table) throws TargetException {
                try (Target primary = Targets.open(config.target())) {
                    primaryBytes.add(ValueSizeStats.of(primary, table).totalBytes());
                }
            }
        };
        return ExperimentRuns.run(config, listener, Files.createDirectories(own.resolve("results")))
                .dir();
    }

    private static List<List<String>> rows(Path dir) throws Exception {
        return Files.readAllLines(dir.resolve("epochs.csv")).stream()
                .skip(1)
                .map(l -> List.of(l.split(",", -1)))
                .toList();
    }

    private static String cell(List<String> row, String column) {
        return row.get(List.of(EpochsCsv.EPOCHS_HEADER.split(",")).indexOf(column));
    }

    /** epoch, mode and the size columns of each row. */
    private static List<String> sizes(List<List<String>> rows) {
        List<String> out = new ArrayList<>();
        for (List<String> r : rows) {
            List<String> c = new ArrayList<>(List.of(r.get(0), r.get(1)));
            for (String column : SIZE_COLUMNS) {
                c.add(cell(r, column));
            }
            out.add(String.join(",", c));
        }
        return out;
    }
}
