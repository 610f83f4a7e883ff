package org.ivsbench.db.jdbc;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.db.StatusCounters;
import org.ivsbench.db.TableSpec;
import org.ivsbench.db.Targets;
import org.ivsbench.testsupport.TestServers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What is SQLite's own: databases are files next to the first, and there are no server counters. The record
 * operations and lossless concurrent extends are SessionContractTest's.
 */
class SqliteTargetTest {
    @TempDir
    Path dir;

    @Test
    void sqliteDatabasesAreFilesNextToTheFirst() throws Exception {
        try (JdbcTarget target = (JdbcTarget) Targets.open(TestServers.sqlite(dir.resolve("main.db")))) {
            target.createDatabase("other", true);
            assertTrue(Files.exists(dir.resolve("other.db")));
            try (JdbcTarget other = (JdbcTarget) target.withDatabase("other")) {
                other.createTable(new TableSpec("t", "K", List.of("F0"), 100, null));
                assertEquals(0, other.countRecords("t"));
                assertEquals("SQLite", other.environment().get("product"));
                assertTrue(other.capability(StatusCounters.class).isEmpty(), "SQLite has no server counters");
            }
        }
    }
}
