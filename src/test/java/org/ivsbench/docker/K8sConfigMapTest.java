package org.ivsbench.docker;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.testsupport.RunHarness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The config in docker/k8s/configmap.yaml is one the loader accepts, and its password comes from the file the
 * Secret is mounted as (the schemas are checked by results-analyzer/tests/test_k8s_manifests.py).
 */
class K8sConfigMapTest {
    static final String SECRET_FILE = "/etc/ivsbench/secret/password";

    @TempDir
    Path tmp;

    @Test
    void theConfigMapsConfigLoadsWithThePasswordFromTheSecretFile() throws Exception {
        Map<?, ?> configMap = new Yaml().load(Files.readString(Path.of("docker/k8s/configmap.yaml")));
        String xml = (String) ((Map<?, ?>) configMap.get("data")).get("config.xml");
        assertTrue(xml.contains("<passwordFile>" + SECRET_FILE + "</passwordFile>"), xml);
        Path secret = tmp.resolve("password");
        Files.writeString(secret, "from-the-secret\n");

        BenchmarkConfig config = RunHarness.config(tmp, xml.replace(SECRET_FILE, secret.toString()));

        assertEquals("from-the-secret", config.target().password());
        assertEquals("MARIADB", config.target().type());
        assertTrue(config.phases().size() >= 1);
    }
}
