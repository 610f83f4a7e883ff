package org.ivsbench.presets;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.faults.CliProcess;
import org.ivsbench.testsupport.TestServers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * config/tenants: the two-tenant sample, run with the tenants command as reads.xml's header says, on the tests'
 * MariaDB, with --shrink: both tenants load 100 records and their time phases shrink to 2 s each.
 */
// Longer than the suite's 5-minute default (docs/trust.md, "Time limits"): one CLI run bounded at 300 s.
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class TenantsPresetTest {
    static final String READS = "config/tenants/reads.xml";
    static final String EXTENDS = "config/tenants/extends.xml";

    @TempDir
    Path tmp;

    @Test
    void theTwoTenantSampleRunsShrunk() throws Exception {
        String url = TestServers.mariadbUrl();
        Map<String, String> env = new HashMap<>();
        env.put("IVS_MARIADB_PASSWORD", TestServers.mariadbPassword());
        Path reads = copy(READS, url);
        Path extendsCopy = copy(EXTENDS, url);
        Path results = Files.createTempDirectory(tmp, "results");
        int code = -1;
        try {
            CliProcess p = CliProcess.start(
                    tmp,
                    env,
                    PresetRun.JVM,
                    "tenants",
                    "reads:ycsbivs:" + reads,
                    "extends:ycsbivs:" + extendsCopy,
                    "--create",
                    "--load",
                    "--execute",
                    "--shrink",
                    "-d",
                    results.toString());
            code = p.waitFor(300);
            assertEquals(0, code, p.stdout() + "\n" + p.stderr());
            assertTrue(p.stdout().contains("tenant reads: --shrink: recordcount 10000 -> 100"), p.stdout());
            assertTrue(p.stdout().contains("tenant extends: --shrink: recordcount 2000 -> 100"), p.stdout());
            ObjectMapper json = new ObjectMapper();
            Map<String, Integer> phases = Map.of("reads", 1, "extends", 3);
            for (Map.Entry<String, Integer> t : phases.entrySet()) {
                List<Path> summaries = PresetRun.find(results, "summary.json").stream()
                        .filter(s -> s.getParent().getFileName().toString().equals(t.getKey()))
                        .toList();
                assertEquals(1, summaries.size(), t.getKey() + " " + summaries);
                JsonNode ph = json.readTree(summaries.get(0).toFile()).get("phases");
                assertEquals(t.getValue().intValue(), ph.size(), t.getKey());
                for (JsonNode phase : ph) {
                    assertEquals(2.0, phase.get("measuredSeconds").asDouble(), 0.5, t.getKey());
                }
                Path env0 = summaries.get(0).resolveSibling("environment.json");
                assertTrue(json.readTree(env0.toFile()).has("shrunk"), env0.toString());
            }
        } finally {
            PresetRun.row("config/tenants/reads.xml + extends.xml", "mariadb", "100 rec each, phases 2 s", code);
            PresetRun.printTable("tenants");
        }
    }

    private Path copy(String file, String url) throws Exception {
        return PresetRun.copy(file, PresetRun.pointAt(Files.readString(Path.of(file)), url), tmp);
    }
}
