package org.ivsbench.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.testsupport.TestServers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One config with only type and url changed runs on SQLite, MariaDB and MongoDB through the real command
 * line, and the three results folders have the same files, the same summary structure and the same CSV
 * columns (monitor.csv's db.* columns are each server's own counters, so only the host columns must match;
 * summary.json's serverPid exists only where a server process on this host was sampled).
 */
class CrossTargetResultsTest {
    @TempDir
    Path tmp;

    private static final String BODY = "<terminals>2</terminals><randomSeed>3</randomSeed>"
            + "<recordcount>200</recordcount><table>cross_target</table>"
            + "<monitor><interval>500</interval></monitor>"
            + "<transactiontypes><transactiontype><name>ReadRecord</name></transactiontype>"
            + "<transactiontype><name>ExtendRecord</name></transactiontype>"
            + "<transactiontype><name>ScanRecord</name></transactiontype></transactiontypes>"
            + "<works><work><count>600</count><rate>unlimited</rate><weights>50,40,10</weights></work>"
            + "<work><time>2</time><rate>200</rate><weights>100,0,0</weights><distribution>uniform</distribution></work>"
            + "</works></parameters>";

    private Path run(String name, String connection) throws IOException {
        Path cfg = tmp.resolve(name + ".xml");
        Files.writeString(cfg, "<parameters>" + connection + BODY);
        Path out = tmp.resolve("results-" + name);
        CliHarness.Result r = CliHarness.run(
                "-b", "ycsbivs", "-c", cfg.toString(), "--create", "--load", "--execute", "-d", out.toString());
        assertEquals(0, r.code(), name + ": " + r.err());
        try (Stream<Path> s = Files.list(out)) {
            return s.findFirst().orElseThrow();
        }
    }

    @Test
    void sameFilesAndColumnsOnEveryTarget() throws Exception {
        Map<String, Path> dirs = new TreeMap<>();
        dirs.put("sqlite", run("sqlite", "<type>SQLITE</type><url>jdbc:sqlite:" + tmp.resolve("x.db") + "</url>"));
        dirs.put(
                "mariadb",
                run(
                        "mariadb",
                        "<type>MARIADB</type><url>" + TestServers.mariadbUrl() + "</url><username>"
                                + TestServers.mariadbUser() + "</username><password>" + TestServers.mariadbPassword()
                                + "</password>"));
        dirs.put("mongodb", run("mongodb", "<type>MONGODB</type><url>" + TestServers.mongoUrl() + "</url>"));

        List<TreeSet<String>> files = new ArrayList<>();
        List<String> sampleHeaders = new ArrayList<>();
        List<TreeSet<String>> hostColumns = new ArrayList<>();
        List<TreeSet<String>> summaryShapes = new ArrayList<>();
        ObjectMapper json = new ObjectMapper();
        for (Path d : dirs.values()) {
            try (Stream<Path> s = Files.list(d)) {
                TreeSet<String> names =
                        new TreeSet<>(s.map(p -> p.getFileName().toString()).toList());
                // setting-changes.csv only where the monitor reads the server's settings (MariaDB, PostgreSQL,
                // Cassandra; docs/results-format.md): not SQLite in process, not the MongoDB stand-in.
                assertEquals(
                        d.equals(dirs.get("mariadb")),
                        names.remove("setting-changes.csv"),
                        "setting-changes.csv in " + d.getFileName());
                files.add(names);
            }
            sampleHeaders.add(Files.readAllLines(d.resolve("samples.csv")).get(0));
            TreeSet<String> host = new TreeSet<>(Arrays.asList(
                    Files.readAllLines(d.resolve("monitor.csv")).get(0).split(",")));
            host.removeIf(c -> c.startsWith("db.") || c.startsWith("proc."));
            hostColumns.add(host);
            JsonNode summary = json.readTree(d.resolve("summary.json").toFile());
            assertTrue(summary.get("complete").asBoolean());
            assertEquals(600, summary.get("phases").get(0).get("operations").asLong(), d.toString());
            TreeSet<String> shape = new TreeSet<>();
            shape(summary, "", shape);
            // Which server process proc.* sampled: a server on this host has one, SQLite (in process) has none.
            if (d.equals(dirs.get("mariadb"))) {
                assertTrue(summary.path("serverPid").asLong() > 0, "mariadb serverPid: " + summary.get("serverPid"));
            }
            if (d.equals(dirs.get("sqlite"))) {
                assertTrue(summary.path("serverPid").isMissingNode(), "sqlite serverPid: " + summary.get("serverPid"));
            }
            summaryShapes.add(shape);
        }
        for (int i = 1; i < files.size(); i++) {
            assertEquals(files.get(0), files.get(i), "files: " + dirs.keySet());
            assertEquals(sampleHeaders.get(0), sampleHeaders.get(i));
            assertEquals(hostColumns.get(0), hostColumns.get(i));
            assertEquals(summaryShapes.get(0), summaryShapes.get(i), "summary.json structure");
        }
        assertTrue(files.get(0)
                .containsAll(List.of(
                        "summary.json",
                        "samples.csv",
                        "latency.hlog",
                        "monitor.csv",
                        "config.xml",
                        "environment.json")));
    }

    /**
     * Field paths of a JSON document, without the values (and without per-server error reasons, the database's
     * own facts and the server pid, which only a server process on this host has).
     */
    private static void shape(JsonNode node, String path, TreeSet<String> out) {
        if (node.isObject()) {
            Iterator<Map.Entry<String, JsonNode>> it = node.fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                if (path.endsWith("errors")
                        || path.equals("/database")
                        || e.getKey().equals("serverPid")) {
                    continue;
                }
                shape(e.getValue(), path + "/" + e.getKey(), out);
            }
        } else if (node.isArray()) {
            for (JsonNode n : node) {
                shape(n, path + "[]", out);
            }
        } else {
            out.add(path);
        }
    }
}
