package org.ivsbench.presets;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

import org.ivsbench.faults.CliProcess;
import org.ivsbench.testsupport.TestServers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * docker/k8s/configmap.yaml's config, run as the Kubernetes jobs run it, on the tests' MariaDB (its url names a
 * MariaDB), with --shrink: the load job's command, then the shards job's four drivers at once (--shard i/4, the
 * Job's completions), then the merge job's command over the four shard folders. Changed: the primary url, and
 * passwordFile pointed at a file holding the test server's password (the pod reads the Secret's file).
 */
// Longer than the suite's 5-minute default (docs/trust.md, "Time limits"): its own bounds: the load 300 s, each
// shard 300 s (its barrier 180 s), the merge 120 s.
@Timeout(value = 20, unit = TimeUnit.MINUTES)
class K8sConfigMapPresetTest {
    static final String FILE = "docker/k8s/configmap.yaml";
    static final String SECRET_FILE = "/etc/ivsbench/secret/password";
    static final int SHARDS = 4;

    @TempDir
    Path tmp;

    @Test
    void theConfigMapsConfigRunsShrunkAsTheJobsRunIt() throws Exception {
        Map<?, ?> configMap = new Yaml().load(Files.readString(Path.of(FILE)));
        String xml = (String) ((Map<?, ?>) configMap.get("data")).get("config.xml");
        assertTrue(xml.contains("<passwordFile>" + SECRET_FILE + "</passwordFile>"), xml);
        Path secret = tmp.resolve("password");
        Files.writeString(secret, TestServers.mariadbPassword() + "\n");
        Path config = tmp.resolve("config.xml");
        Files.writeString(
                config, PresetRun.pointAt(xml, TestServers.mariadbUrl()).replace(SECRET_FILE, secret.toString()));
        Path results = tmp.resolve("results");
        int code = -1;
        String size = "?";
        try {
            CliProcess load = CliProcess.start(
                    tmp,
                    Map.of(),
                    PresetRun.JVM,
                    "-b",
                    "ycsbivs",
                    "-c",
                    config.toString(),
                    "--create=true",
                    "--load=true",
                    "--shrink");
            code = load.waitFor(300);
            assertEquals(0, code, load.stdout() + "\n" + load.stderr());
            assertTrue(load.stdout().contains("--shrink: recordcount 100000 -> 100"), load.stdout());
            PresetRun.Ran loaded = new PresetRun.Ran(FILE, code, load.stdout(), load.stderr(), results);
            assertEquals(PresetRun.RECORDS, PresetRun.loaded(loaded));

            List<CliProcess> shards = new ArrayList<>();
            for (int i = 0; i < SHARDS; i++) {
                shards.add(CliProcess.start(
                        tmp,
                        new HashMap<>(),
                        PresetRun.JVM,
                        "-b",
                        "ycsbivs",
                        "-c",
                        config.toString(),
                        "--execute=true",
                        "--shard",
                        i + "/" + SHARDS,
                        "--barrier-timeout",
                        "180",
                        "--shrink",
                        "-d",
                        results.resolve("shard-" + i).toString()));
            }
            try {
                for (CliProcess s : shards) {
                    code = s.waitFor(300);
                    assertEquals(0, code, s.stdout() + "\n" + s.stderr());
                    assertTrue(s.stdout().contains("works/work[1]/time 300 -> 2"), s.stdout());
                }
            } catch (AssertionError e) {
                // One shard's output says little about a barrier: show what every shard printed.
                StringBuilder all = new StringBuilder(e.getMessage());
                for (int i = 0; i < SHARDS; i++) {
                    CliProcess s = shards.get(i);
                    s.destroyIfAlive();
                    all.append("\n--- shard ").append(i).append(" stdout:\n").append(s.stdout());
                    all.append("\n--- shard ").append(i).append(" stderr:\n").append(s.stderr());
                }
                throw new AssertionError(all.toString(), e);
            }
            List<String> merge = new ArrayList<>(
                    List.of("merge", "-o", results.resolve("merged").toString()));
            for (int i = 0; i < SHARDS; i++) {
                List<Path> runs = PresetRun.find(results.resolve("shard-" + i), "summary.json");
                assertEquals(1, runs.size(), "shard " + i + ": " + runs);
                merge.add(runs.get(0).getParent().toString());
                Path env = runs.get(0).resolveSibling("environment.json");
                assertTrue(new ObjectMapper().readTree(env.toFile()).has("shrunk"), env.toString());
            }
            CliProcess merged = CliProcess.start(tmp, Map.of(), PresetRun.JVM, merge.toArray(String[]::new));
            code = merged.waitFor(120);
            assertEquals(0, code, merged.stdout() + "\n" + merged.stderr());
            JsonNode summary = new ObjectMapper()
                    .readTree(results.resolve("merged/summary.json").toFile());
            assertTrue(summary.path("complete").asBoolean(), summary.toString());
            assertEquals(SHARDS, summary.path("shards").path("count").asInt());
            assertEquals(16, summary.path("terminals").asInt(), "the ConfigMap's terminals, all shards together");
            JsonNode phases = summary.path("phases");
            assertEquals(1, phases.size());
            assertEquals(2.0, phases.get(0).path("measuredSeconds").asDouble(), 0.5);
            size = "100 rec, 1 phase (2 s), " + SHARDS + " shards merged";
        } finally {
            PresetRun.row(FILE + " (config.xml)", "mariadb", size, code);
            PresetRun.printTable("k8s ConfigMap");
        }
    }
}
