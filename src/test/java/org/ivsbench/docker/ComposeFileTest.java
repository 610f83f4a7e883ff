package org.ivsbench.docker;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * No Docker engine runs on the build machines, so the paper's platforms are checked by reading the compose
 * file: each service's image, published port, data volume and the settings the paper needs, and that the
 * sample configs point at those ports.
 */
class ComposeFileTest {
    private static Map<String, Object> services;
    private static Map<String, Object> volumes;

    @BeforeAll
    @SuppressWarnings("unchecked")
    static void parse() throws IOException {
        Map<String, Object> root = new Yaml().load(Files.readString(Path.of("docker/docker-compose.yml")));
        services = (Map<String, Object>) root.get("services");
        volumes = (Map<String, Object>) root.get("volumes");
        assertNotNull(services, "services");
        assertNotNull(volumes, "volumes");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> service(String name) {
        Map<String, Object> s = (Map<String, Object>) services.get(name);
        assertNotNull(s, "service " + name);
        return s;
    }

    @SuppressWarnings("unchecked")
    private static List<String> list(Map<String, Object> service, String key) {
        Object v = service.get(key);
        assertNotNull(v, key);
        return ((List<Object>) v).stream().map(String::valueOf).toList();
    }

    private static void assertPublishes(Map<String, Object> s, String hostPort, String containerPort) {
        assertTrue(
                list(s, "ports").stream().anyMatch(p -> p.endsWith(":" + hostPort + ":" + containerPort)),
                "publishes " + hostPort + " -> " + containerPort + ": " + s.get("ports"));
    }

    private static void assertVolume(Map<String, Object> s, String volume, String mountPoint) {
        assertTrue(
                list(s, "volumes").contains(volume + ":" + mountPoint),
                s.get("volumes").toString());
        assertTrue(volumes.containsKey(volume), "named volume " + volume + " declared");
    }

    @Test
    void mongodbIsVersionSixWithItsDataOnAVolume() {
        Map<String, Object> s = service("mongodb");
        assertEquals("mongo:6.0", s.get("image"));
        assertPublishes(s, "27017", "27017");
        assertVolume(s, "mongodb-data", "/data/db");
    }

    @Test
    void innodbIsMariaDb106WithTheFourGigabyteBufferPool() {
        Map<String, Object> s = service("mariadb-innodb");
        assertEquals("mariadb:10.6", s.get("image"));
        List<String> command = list(s, "command");
        assertTrue(command.contains("--innodb-buffer-pool-size=${INNODB_BUFFER_POOL:-4G}"), command.toString());
        assertTrue(command.contains("--max-allowed-packet=64M"), command.toString());
        assertPublishes(s, "3306", "3306");
        assertVolume(s, "mariadb-innodb-data", "/var/lib/mysql");
    }

    @Test
    void myrocksIsMariaDb106WithRocksDbLoadedAtStartup() throws IOException {
        Map<String, Object> s = service("mariadb-myrocks");
        assertEquals("./myrocks", s.get("build"));
        String dockerfile = Files.readString(Path.of("docker/myrocks/Dockerfile"));
        assertTrue(dockerfile.lines().anyMatch(l -> l.equals("FROM mariadb:10.6")), "base image");
        assertTrue(dockerfile.contains("mariadb-plugin-rocksdb"), "installs the plugin");
        String cnf = Files.readString(Path.of("docker/myrocks/rocksdb.cnf"));
        assertTrue(cnf.lines().anyMatch(l -> l.strip().equals("plugin-load-add=ha_rocksdb.so")), "loaded at startup");
        assertTrue(list(s, "command").contains("--max-allowed-packet=64M"));
        assertPublishes(s, "3307", "3306");
        assertVolume(s, "mariadb-myrocks-data", "/var/lib/mysql");
    }

    @Test
    void sampleConfigsPointAtThePublishedPorts() throws IOException {
        assertTrue(
                Files.readString(Path.of("config/mariadb/ycsbivs_config.xml")).contains("127.0.0.1:3306/"));
        assertTrue(
                Files.readString(Path.of("config/myrocks/ycsbivs_config.xml")).contains("127.0.0.1:3307/"));
        assertTrue(
                Files.readString(Path.of("config/mongodb/ycsbivs_config.xml")).contains("127.0.0.1:27017/"));
    }
}
