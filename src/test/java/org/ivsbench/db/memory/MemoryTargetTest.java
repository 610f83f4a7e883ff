package org.ivsbench.db.memory;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.ivsbench.config.ConfigException;
import org.ivsbench.config.TargetConfig;
import org.ivsbench.db.DatabaseAdmin;
import org.ivsbench.db.ServerInfo;
import org.ivsbench.db.Session;
import org.ivsbench.db.StatusCounters;
import org.ivsbench.db.TableSpec;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;
import org.ivsbench.db.TargetKinds;
import org.ivsbench.db.Targets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The test-only binding is found through its registration line alone, and behaves like a database. */
class MemoryTargetTest {
    private static final TableSpec TABLE = new TableSpec("t", "K", List.of("F0", "F1"), 10, null);

    private static TargetConfig config(String url) throws ConfigException {
        return TargetKinds.resolve(new TargetConfig("memory", null, url, null, null, null, false, Map.of()));
    }

    @Test
    void theRegistryFindsTheKindByItsRegistrationLine() throws Exception {
        assertInstanceOf(MemoryKind.class, TargetKinds.find("MEMORY").orElseThrow());
        assertTrue(
                TargetKinds.names().containsAll(List.of("MEMORY", "SQLITE", "MARIADB", "MYSQL", "MONGODB")),
                TargetKinds.names().toString());
        TargetConfig resolved = config("memory:kinds");
        assertEquals("MEMORY", resolved.type());
        assertNull(resolved.driver(), "no JDBC driver");
        assertNull(resolved.isolation(), "isolation does not apply");
        ConfigException bad = assertThrows(
                ConfigException.class,
                () -> TargetKinds.resolve(
                        new TargetConfig("NOSUCH", null, "memory:x", null, null, null, false, Map.of())));
        assertEquals("type", bad.path());
        assertTrue(bad.getMessage().contains("MEMORY"), "the message lists the registered names: " + bad.getMessage());
        ConfigException url = assertThrows(ConfigException.class, () -> config("jdbc:sqlite:x.db"));
        assertEquals("url: 'jdbc:sqlite:x.db' does not fit type MEMORY (expected memory:<database>)", url.getMessage());
    }

    /** The record operations are SessionContractTest's; here what the kind offers besides: databases only. */
    @Test
    void itOffersDatabasesButNoServerFacts() throws Exception {
        try (Target target = Targets.open(config("memory:capabilities"))) {
            assertTrue(target.capability(DatabaseAdmin.class).isPresent());
            assertFalse(target.capability(ServerInfo.class).isPresent());
            assertFalse(target.capability(StatusCounters.class).isPresent());
        }
    }

    @Test
    void freshDatabasesAreSeparate() throws Exception {
        try (Target target = Targets.open(config("memory:primary"))) {
            target.createTable(TABLE);
            DatabaseAdmin admin = target.capability(DatabaseAdmin.class).orElseThrow();
            admin.createDatabase("fresh", true);
            try (Target fresh = admin.withDatabase("fresh")) {
                fresh.createTable(TABLE);
                try (Session s = fresh.openSession()) {
                    s.insert("t", "k", Map.of("F0", "v"));
                }
                assertEquals(1, fresh.countRecords("t"));
                assertEquals(0, target.countRecords("t"));
            }
            admin.dropDatabase("fresh");
            try (Target again = admin.withDatabase("fresh")) {
                assertThrows(TargetException.class, () -> again.countRecords("t"), "dropped");
            }
        }
    }
}
