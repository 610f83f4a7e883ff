package org.ivsbench.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.testsupport.CliArgs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A ramped run and a semi-open run through the CLI on SQLite: exact arrival counts, and the configured rate and
 * mix of every window in settings.csv, next to what samples.csv measured.
 */
class ShiftsCliTest {
    @TempDir
    Path tmp;

    private String config(String works) {
        return """
                <parameters>
                    <type>SQLITE</type>
                    <url>jdbc:sqlite:%s</url>
                    <terminals>2</terminals>
                    <randomSeed>7</randomSeed>
                    <recordcount>200</recordcount>
                    <transactiontypes>
                        <transactiontype><name>ReadRecord</name></transactiontype>
                        <transactiontype><name>ExtendRecord</name></transactiontype>
                    </transactiontypes>
                    <works>%s</works>
                </parameters>
                """
                .formatted(tmp.resolve("s.db"), works);
    }

    private Path runFolder(Path results) throws Exception {
        try (Stream<Path> s = Files.list(results)) {
            List<Path> dirs = s.toList();
            assertEquals(1, dirs.size(), dirs.toString());
            return dirs.get(0);
        }
    }

    private static List<Map<String, String>> csv(Path file) throws Exception {
        List<String> lines = Files.readAllLines(file);
        String[] header = lines.get(0).split(",", -1);
        List<Map<String, String>> rows = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] cells = line.split(",", -1);
            Map<String, String> row = new HashMap<>();
            for (int i = 0; i < header.length; i++) {
                row.put(header[i], cells[i]);
            }
            rows.add(row);
        }
        return rows;
    }

    @Test
    void aRampedRunShowsItsShiftPerWindow() throws Exception {
        Path file = tmp.resolve("ramp.xml");
        Files.writeString(
                file,
                config(
                        """
                <work><name>up</name><time>4</time><rate>100</rate><weights>100,0</weights>
                    <distribution>zipfian(theta=0.5)</distribution>
                    <ramp><rate>300</rate><weights>0,100</weights><distribution>zipfian(theta=0.9)</distribution></ramp>
                </work>
                <work><name>down</name><time>4</time><rate>300</rate><weights>50,50</weights>
                    <ramp><shape>step</shape><every>2</every><rate>100</rate></ramp>
                </work>
                """));
        Path results = tmp.resolve("results");
        CliHarness.Result r = CliHarness.run(CliArgs.createLoadExecute(file, results));
        assertEquals(0, r.code(), r.err());
        Path run = runFolder(results);
        JsonNode phases = new ObjectMapper()
                .readTree(run.resolve("summary.json").toFile())
                .get("phases");
        // (100 + 300) / 2 x 4 s and 300 x 2 s + 100 x 2 s: every arrival ran or was counted as missed.
        for (JsonNode p : phases) {
            assertEquals(
                    800,
                    p.get("operations").asLong() + p.get("missed").asLong(),
                    p.get("name").asText());
        }
        List<Map<String, String>> settings = csv(run.resolve("settings.csv"));
        List<Double> upRates = new ArrayList<>();
        List<Double> extendShare = new ArrayList<>();
        List<Double> downRates = new ArrayList<>();
        for (Map<String, String> row : settings) {
            if (!row.get("measured_ms").equals("1000")) {
                continue;
            }
            double rate = Double.parseDouble(row.get("rate"));
            if (row.get("phase").equals("0")) {
                upRates.add(rate);
                extendShare.add(Double.parseDouble(row.get("weights").split(";")[1]));
            } else {
                downRates.add(rate);
            }
        }
        assertTrue(upRates.size() >= 2 && downRates.size() >= 2, settings.toString());
        for (int i = 1; i < upRates.size(); i++) {
            // One second further along a rate rising by 50/s each second, and the mix by 25 points.
            assertEquals(50, upRates.get(i) - upRates.get(i - 1), 1e-6, upRates.toString());
            assertEquals(25, extendShare.get(i) - extendShare.get(i - 1), 1e-2, extendShare.toString());
        }
        assertTrue(downRates.get(0) > downRates.get(downRates.size() - 1), downRates.toString());
        // What ran follows: the mix starts with no extends and ends with nothing else.
        List<Long> extendsPerWindow = new ArrayList<>();
        for (Map<String, String> row : csv(run.resolve("samples.csv"))) {
            if (row.get("phase").equals("0") && row.get("type").equals("ExtendRecord")) {
                extendsPerWindow.add(Long.parseLong(row.get("ok")));
            }
        }
        long earlyExtends = extendsPerWindow.get(0);
        long lateExtends =
                extendsPerWindow.stream().mapToLong(Long::longValue).max().orElse(0);
        assertTrue(lateExtends > earlyExtends, earlyExtends + " then " + lateExtends);
    }

    @Test
    void aSemiOpenRunCountsEveryArrivalAndABadThinkTimeIsAUsageError() throws Exception {
        Path file = tmp.resolve("semi.xml");
        Files.writeString(
                file,
                config(
                        """
                <work><time>3</time><rate>50</rate><weights>50,50</weights>
                    <thinkTime>exponential(mean=30)</thinkTime></work>
                """));
        Path results = tmp.resolve("results");
        CliHarness.Result r = CliHarness.run(CliArgs.createLoadExecute(file, results));
        assertEquals(0, r.code(), r.err());
        JsonNode p = new ObjectMapper()
                .readTree(runFolder(results).resolve("summary.json").toFile())
                .get("phases")
                .get(0);
        assertEquals(150, p.get("operations").asLong() + p.get("missed").asLong());
        assertTrue(Files.notExists(runFolder(results).resolve("settings.csv")), "no ramp, no settings.csv");

        Files.writeString(
                file,
                config(
                        """
                <work><time>3</time><rate>50</rate><weights>50,50</weights>
                    <thinkTime>normal(mean=)</thinkTime></work>
                """));
        CliHarness.Result bad = CliHarness.run(
                "-b",
                "ycsbivs",
                "-c",
                file.toString(),
                "--execute",
                "-d",
                tmp.resolve("bad").toString());
        assertEquals(2, bad.code(), bad.err());
        assertTrue(bad.err().contains("works/work[1]/thinkTime: 'normal(mean=)'"), bad.err());
        assertTrue(Files.notExists(tmp.resolve("bad")), "nothing written");
    }
}
