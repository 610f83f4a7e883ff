package org.ivsbench.db.jdbc;

import java.util.List;

import org.junit.jupiter.api.Test;

import org.ivsbench.db.TableSpec;
import org.ivsbench.db.TargetException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The pieces the SQL dialects share: one CREATE TABLE built from each dialect's column types, and one reading of a
 * server URL for the database name and for a sibling database's URL. Expected texts written out by hand.
 */
class SqlTextTest {
    private static final TableSpec GROWING = new TableSpec("t", "K", List.of("F0", "F1"), 100, "InnoDB");
    private static final TableSpec BOUNDED =
            new TableSpec("t", "k", List.of("f1"), 100, null, TableSpec.KeyType.INTEGER, true);

    @Test
    void mariadbTablesAsBefore() {
        SqlStatements sql = new SqlStatements(new MariaDbDialect());
        assertEquals(
                "CREATE TABLE `t` (`K` VARCHAR(255) CHARACTER SET ascii COLLATE ascii_bin NOT NULL, `F0` LONGTEXT,"
                        + " `F1` LONGTEXT, PRIMARY KEY (`K`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin",
                sql.createTable(GROWING));
        assertEquals(
                "CREATE TABLE `t` (`k` INT NOT NULL, `f1` VARCHAR(100), PRIMARY KEY (`k`))"
                        + " DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin",
                sql.createTable(BOUNDED));
    }

    @Test
    void sqliteTablesDeclareTheKeyAsATableConstraint() {
        SqlStatements sql = new SqlStatements(new SqliteDialect());
        assertEquals(
                "CREATE TABLE \"t\" (\"K\" TEXT NOT NULL, \"F0\" TEXT, \"F1\" TEXT, PRIMARY KEY (\"K\"))",
                sql.createTable(new TableSpec("t", "K", List.of("F0", "F1"), 100, null)));
        assertEquals(
                "CREATE TABLE \"t\" (\"k\" INT NOT NULL, \"f1\" VARCHAR(100), PRIMARY KEY (\"k\"))",
                sql.createTable(BOUNDED));
    }

    @Test
    void serverUrlsAreTakenApartAtTheDatabase() {
        assertEquals(
                new ServerUrl("jdbc:mariadb://h:1", "db", "?user=x&a=/b"),
                ServerUrl.parse("jdbc:mariadb://h:1/db?user=x&a=/b").orElseThrow());
        assertEquals(
                new ServerUrl("jdbc:mariadb://h:1", "", "?a=/b"),
                ServerUrl.parse("jdbc:mariadb://h:1?a=/b").orElseThrow(),
                "a slash in the options is not the database's");
        assertEquals(
                new ServerUrl("jdbc:postgresql://h", "", ""),
                ServerUrl.parse("jdbc:postgresql://h").orElseThrow());
        assertTrue(ServerUrl.parse("jdbc:sqlite:x.db").isEmpty());
        assertEquals("jdbc:x://h", ServerUrl.withoutOptions("jdbc:x://h?password=secret"));
    }

    @Test
    void siblingDatabasesKeepServerAndOptions() throws TargetException {
        assertEquals(
                "jdbc:mariadb://h:1/other?user=x",
                new MariaDbDialect().urlForDatabase("jdbc:mariadb://h:1/db?user=x", "other"));
        assertEquals("jdbc:mariadb://h:1/", new MariaDbDialect().urlForDatabase("jdbc:mariadb://h:1/db", ""));
        assertEquals(
                "jdbc:postgresql://h/postgres?ssl=false",
                new PostgresDialect().urlForDatabase("jdbc:postgresql://h?ssl=false", "postgres"));
        TargetException bad = assertThrows(
                TargetException.class, () -> new PostgresDialect().urlForDatabase("jdbc:mariadb://h/db", "x"));
        assertTrue(bad.getMessage().contains("expected jdbc:postgresql://"), bad.getMessage());
    }
}
