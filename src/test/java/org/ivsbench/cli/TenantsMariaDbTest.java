package org.ivsbench.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.testsupport.TestServers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sample tenants of config/tenants/ (shortened: reads for 12 s; extends idle 4 s, extending 4 s, idle 4 s) on
 * the private MariaDB. Asserts the structure the interference report needs: both tenants' windows on one timeline,
 * on one window grid, the extend windows overlapping the read phase (reads completing in them, each window marked by
 * the tenants that completed operations in it), and solo read windows before and after them.
 * How much the reads' p99 rises is a measurement (config/tenants/README.md), not a test.
 */
class TenantsMariaDbTest {
    @TempDir
    Path tmp;

    private Path config(String name, Map<String, String> replacements) throws Exception {
        String xml = Files.readString(Path.of("config/tenants/" + name + ".xml"))
                .replace("jdbc:mariadb://127.0.0.1:3306/ivsbench", TestServers.mariadbUrl())
                .replace("<username>ivs</username>", "<username>" + TestServers.mariadbUser() + "</username>")
                .replace(
                        "<passwordEnv>IVS_MARIADB_PASSWORD</passwordEnv>",
                        "<password>" + TestServers.mariadbPassword() + "</password>");
        for (Map.Entry<String, String> e : replacements.entrySet()) {
            assertTrue(xml.contains(e.getKey()), name + ".xml: " + e.getKey());
            xml = xml.replace(e.getKey(), e.getValue());
        }
        Path f = tmp.resolve(name + ".xml");
        Files.writeString(f, xml);
        return f;
    }

    @Test
    void readTenantAloneThenOverlappedByTheExtendTenantOnOneTimeline() throws Exception {
        Path reads = config(
                "reads", Map.of("<time>45</time>", "<time>12</time>", "<recordcount>10000", "<recordcount>2000"));
        Path extendsConfig = config("extends", Map.of("<time>15</time>", "<time>4</time>"));
        Path results = tmp.resolve("results");

        CliHarness.Result r = CliHarness.run(
                "tenants",
                "reads:ycsbivs:" + reads,
                "extends:ycsbivs:" + extendsConfig,
                "--create",
                "--load",
                "--execute",
                "-d",
                results.toString());

        assertEquals(0, r.code(), r.err() + r.out());
        Path run;
        try (var dirs = Files.list(results)) {
            run = dirs.findFirst().orElseThrow();
        }
        List<Map<String, String>> rows = rows(run.resolve("tenants.csv"));
        TreeMap<Long, Map<String, Map<String, String>>> byWindow = new TreeMap<>();
        for (Map<String, String> row : rows) {
            long t = Long.parseLong(row.get("time_ms"));
            // The last window of a run is partial (window_ms is its real span); every window starts on the -s grid.
            assertEquals(0, t % 1000, "windows on one grid: " + row);
            // The extends tenant has one row per phase in a window where its phases change: keep the busy one.
            byWindow.computeIfAbsent(t, k -> new TreeMap<>())
                    .merge(row.get("tenant"), row, (a, b) -> ops(a) >= ops(b) ? a : b);
        }
        // A window's active_tenants counts the tenants that completed operations in it. How many reads complete in
        // a window of the unlimited extend storm is the measurement (a busy box can starve a window of them); what
        // the report needs is that each window is marked by what completed in it, that reads did complete during
        // the storm, and that solo read windows come before and after it.
        List<Long> storm = new ArrayList<>();
        List<Long> overlap = new ArrayList<>();
        List<Long> readsSolo = new ArrayList<>();
        for (Map.Entry<Long, Map<String, Map<String, String>>> w : byWindow.entrySet()) {
            Map<String, String> read = w.getValue().get("reads");
            Map<String, String> extend = w.getValue().get("extends");
            boolean extending = extend != null && "1".equals(extend.get("phase")) && ops(extend) > 0;
            boolean reading = read != null && ops(read) > 0;
            if (extending) {
                storm.add(w.getKey());
                assertEquals(reading ? "2" : "1", extend.get("active_tenants"), "extend window " + w.getKey());
            }
            if (extending && reading) {
                assertEquals("2", read.get("active_tenants"), "overlap detected at " + w.getKey());
                overlap.add(w.getKey());
            } else if (reading) {
                assertEquals("1", read.get("active_tenants"), "solo at " + w.getKey());
                readsSolo.add(w.getKey());
            }
        }
        System.out.println("extend windows " + storm + ", of them with reads " + overlap + "; solo reads " + readsSolo);
        assertFalse(overlap.isEmpty(), "reads completed during the extend storm (windows " + storm + ")");
        assertTrue(readsSolo.get(0) < storm.get(0), "solo read windows before the extends: " + readsSolo);
        assertTrue(readsSolo.get(readsSolo.size() - 1) > storm.get(storm.size() - 1), "and after");

        ObjectMapper json = new ObjectMapper();
        JsonNode index = json.readTree(run.resolve("tenants.json").toFile());
        assertEquals(2, index.path("tenants").size());
        assertTrue(index.has("startSpreadMs"));
        JsonNode readSummary = json.readTree(run.resolve("reads/summary.json").toFile());
        JsonNode extendSummary =
                json.readTree(run.resolve("extends/summary.json").toFile());
        assertTrue(readSummary.path("complete").asBoolean()
                && extendSummary.path("complete").asBoolean());
        long extendStart = extendSummary.path("phases").get(1).path("startMs").asLong();
        long extendEnd = extendSummary.path("phases").get(1).path("endMs").asLong();
        JsonNode readPhase = readSummary.path("phases").get(0);
        assertTrue(
                readPhase.path("startMs").asLong() < extendStart
                        && extendEnd < readPhase.path("endMs").asLong(),
                "the extend phase lies inside the read phase on the one clock");
        assertTrue(extendSummary.path("phases").get(1).path("operations").asLong() > 0);
    }

    private static long ops(Map<String, String> row) {
        return Long.parseLong(row.get("ok"))
                + Long.parseLong(row.get("skipped"))
                + Long.parseLong(row.get("aborted"))
                + Long.parseLong(row.get("error"));
    }

    static List<Map<String, String>> rows(Path csv) throws Exception {
        List<String> lines = Files.readAllLines(csv);
        String[] header = lines.get(0).split(",");
        List<Map<String, String>> rows = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",", -1);
            Map<String, String> row = new TreeMap<>();
            for (int i = 0; i < header.length; i++) {
                row.put(header[i], f[i]);
            }
            rows.add(row);
        }
        return rows;
    }
}
