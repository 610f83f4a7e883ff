package org.ivsbench.presets;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every config shipped under config/ (and docker/'s, i.e. the k8s ConfigMap's) is run by exactly one of the preset
 * test classes, as their own file lists say: a new config without a test, or one whose type no group takes, fails
 * here (pure file logic; no server).
 */
class EveryConfigHasAGroupTest {
    static Map<String, List<String>> groups() throws Exception {
        Map<String, List<String>> g = new LinkedHashMap<>();
        g.put("SqlitePresetsTest", SqlitePresetsTest.files().toList());
        g.put("MariaDbPresetsTest", MariaDbPresetsTest.files().toList());
        g.put("PostgresPresetsTest", PostgresPresetsTest.files().toList());
        g.put("MongoPresetsTest", MongoPresetsTest.files().toList());
        g.put("CassandraPresetsTest", CassandraPresetsTest.files().toList());
        g.put("TenantsPresetTest", List.of(TenantsPresetTest.READS, TenantsPresetTest.EXTENDS));
        g.put("K8sConfigMapPresetTest", List.of(K8sConfigMapPresetTest.FILE));
        return g;
    }

    @Test
    void everyShippedConfigFallsInExactlyOneGroup() throws Exception {
        Map<String, List<String>> claimedBy = new TreeMap<>();
        for (Map.Entry<String, List<String>> group : groups().entrySet()) {
            for (String file : group.getValue()) {
                claimedBy.computeIfAbsent(file, f -> new ArrayList<>()).add(group.getKey());
            }
        }
        List<String> shipped = new ArrayList<>(files("config", ".xml"));
        // Outside config/: any file that holds a benchmark config (docker/k8s/configmap.yaml's config.xml).
        for (String f : files("docker", "")) {
            if (Files.readString(Path.of(f)).contains("<parameters>")) {
                shipped.add(f);
            }
        }
        List<String> wrong = new ArrayList<>();
        for (String file : shipped) {
            List<String> by = claimedBy.getOrDefault(file, List.of());
            if (by.size() != 1) {
                wrong.add(file + " is run by " + (by.isEmpty() ? "no preset test" : by));
            }
        }
        for (String file : claimedBy.keySet()) {
            if (!shipped.contains(file)) {
                wrong.add(file + " is in a group but not a shipped config");
            }
        }
        assertEquals(List.of(), wrong);
        // Sanity: the walk found the known shapes (an empty walk would pass the loop above).
        assertTrue(shipped.contains("config/tenants/reads.xml") && shipped.contains(K8sConfigMapPresetTest.FILE));
        System.out.println(shipped.size() + " shipped configs, each in one preset group");
    }

    @Test
    void configHoldsOnlyXmlConfigsAndReadmes() throws Exception {
        List<String> other = files("config", "").stream()
                .filter(f -> !f.endsWith(".xml") && !f.endsWith("/README.md"))
                .toList();
        assertEquals(List.of(), other, "a config in another format would be run by no preset test");
    }

    private static List<String> files(String dir, String suffix) throws IOException {
        try (Stream<Path> s = Files.walk(Path.of(dir))) {
            return s.filter(Files::isRegularFile)
                    .map(Path::toString)
                    .filter(f -> f.endsWith(suffix))
                    .sorted()
                    .toList();
        }
    }
}
