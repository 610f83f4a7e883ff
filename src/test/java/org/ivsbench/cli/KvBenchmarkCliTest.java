package org.ivsbench.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.bench.BenchmarkRegistry;
import org.ivsbench.config.TargetConfig;
import org.ivsbench.db.Session;
import org.ivsbench.db.Target;
import org.ivsbench.db.Targets;
import org.ivsbench.op.Outcome;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The test-only benchmark kv runs through the real command line like the shipped ones, on the MEMORY kind: phases
 * (load, then a read phase and a write phase) and a sweep. What it must show is computed from the config alone.
 */
class KvBenchmarkCliTest {
    @TempDir
    Path tmp;

    private static String config(String database, String works, String more) {
        return "<parameters><type>MEMORY</type><url>memory:" + database + "</url>"
                + "<terminals>2</terminals><loaderThreads>3</loaderThreads><randomSeed>7</randomSeed>"
                + "<scalefactor>2.5</scalefactor><valuesize>12</valuesize>"
                + "<transactiontypes><transactiontype><name>Get</name></transactiontype>"
                + "<transactiontype><name>Put</name></transactiontype></transactiontypes>"
                + "<works>" + works + "</works>" + more + "</parameters>";
    }

    private Path write(String name, String xml) throws Exception {
        Path file = tmp.resolve(name);
        Files.writeString(file, xml);
        return file;
    }

    private static Path onlyFolder(Path parent) throws Exception {
        try (Stream<Path> s = Files.list(parent)) {
            List<Path> all = s.toList();
            assertEquals(1, all.size(), all.toString());
            return all.get(0);
        }
    }

    @Test
    void theRegistryFindsTheServicesLine() {
        assertTrue(BenchmarkRegistry.names().containsAll(List.of("kv", "ycsb", "ycsbivs")), "names");
        assertEquals("kv", BenchmarkRegistry.create("kv").orElseThrow().name());
        // Each run gets its own instance: run state never leaks from one run into the next.
        assertFalse(BenchmarkRegistry.create("kv").orElseThrow()
                == BenchmarkRegistry.create("kv").orElseThrow());
    }

    @Test
    void phasesLoadReadAndWrite() throws Exception {
        String works = "<work><count>400</count><rate>unlimited</rate><weights>100,0</weights></work>"
                + "<work><count>300</count><rate>unlimited</rate><weights>0,100</weights></work>";
        Path config = write("kv.xml", config("kvphases", works, ""));
        Path results = tmp.resolve("results");
        CliHarness.Result run = CliHarness.run(
                "-b", "kv", "-c", config.toString(), "--create", "--load", "--execute", "-d", results.toString());
        assertEquals(0, run.code(), run.err());

        JsonNode summary = new ObjectMapper()
                .readTree(onlyFolder(results).resolve("summary.json").toFile());
        assertEquals("kv", summary.get("benchmark").asText());
        assertTrue(summary.get("complete").asBoolean());
        JsonNode phases = summary.get("phases");
        assertEquals(2, phases.size());
        assertEquals(
                400,
                phases.get(0)
                        .get("transactions")
                        .get("Get")
                        .get("counts")
                        .get("ok")
                        .asLong());
        assertEquals(
                300,
                phases.get(1)
                        .get("transactions")
                        .get("Put")
                        .get("counts")
                        .get("ok")
                        .asLong());
        for (JsonNode phase : phases) {
            assertEquals(0, phase.get("counts").get("error").asLong(), phase.toString());
            assertEquals(0, phase.get("counts").get("aborted").asLong(), "every chosen key was loaded");
        }
        // Put writes 12 characters per operation.
        assertEquals(300L * 12, phases.get(1).get("bytesWritten").asLong());

        // scalefactor 2.5: keys k0 .. k2499, each a 12-character value; nothing beyond.
        try (Target target = Targets.open(memory("kvphases"));
                Session session = target.openSession()) {
            for (int i = 0; i < 2500; i++) {
                String key = "k" + i;
                Map<String, String> value = new HashMap<>();
                assertEquals(Outcome.OK, session.read("kv", key, null, value).outcome(), key);
                assertEquals(12, value.get("v").length(), key);
            }
            assertEquals(
                    Outcome.ABORTED,
                    session.read("kv", "k2500", null, new HashMap<>()).outcome());
        }
    }

    @Test
    void aSweepRunsEveryPoint() throws Exception {
        String works = "<work><count>100</count><rate>unlimited</rate><weights>50,50</weights></work>";
        String sweep = "<sweep><terminals>1,3</terminals><counts>200</counts><trials>1</trials>"
                + "<reload>true</reload></sweep>";
        Path config = write("kv-sweep.xml", config("kvsweep", works, sweep));
        Path results = tmp.resolve("results");
        CliHarness.Result run = CliHarness.run(
                "-b", "kv", "-c", config.toString(), "--create", "--load", "--execute", "-d", results.toString());
        assertEquals(0, run.code(), run.err());

        Path folder = onlyFolder(results);
        assertTrue(folder.getFileName().toString().startsWith("kv-sweep_"), folder.toString());
        List<String> rows = Files.readAllLines(folder.resolve("sweep.csv"));
        assertEquals(3, rows.size(), rows.toString());
        List<String> header = List.of(rows.get(0).split(",", -1));
        for (int i = 1; i < rows.size(); i++) {
            String[] row = rows.get(i).split(",", -1);
            assertEquals("MEMORY", row[0]);
            assertEquals(i == 1 ? "1" : "3", row[header.indexOf("terminals")], rows.get(i));
            assertEquals("200", row[header.indexOf("operations")], rows.get(i));
            assertEquals("0", row[header.indexOf("errors")], rows.get(i));
        }
        assertTrue(Files.isRegularFile(folder.resolve("t3-n200-trial1/summary.json")));
    }

    @Test
    void aBadParameterIsOneLineNamingIt() throws Exception {
        String works = "<work><count>10</count><rate>unlimited</rate><weights>50,50</weights></work>";
        Path config = write("bad.xml", config("kvbad", works, "").replace(">12<", ">0<"));
        Path results = tmp.resolve("r");
        CliHarness.Result run =
                CliHarness.run("-b", "kv", "-c", config.toString(), "--create", "--execute", "-d", results.toString());
        assertEquals(2, run.code());
        assertTrue(run.err().contains("valuesize: '0' must be at least 1"), run.err());
        assertEquals(1, run.err().strip().lines().count(), run.err());
        assertFalse(Files.exists(results), "nothing written");
    }

    private static TargetConfig memory(String database) {
        return new TargetConfig("MEMORY", null, "memory:" + database, null, null, null, false, Map.of());
    }
}
