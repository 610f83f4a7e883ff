package org.ivsbench.db.jdbc;

import java.io.IOException;
import java.net.ConnectException;
import java.sql.SQLException;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.ivsbench.config.ConfigException;
import org.ivsbench.db.TableSpec;
import org.ivsbench.db.TargetException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The PostgreSQL dialect's pure parts: URLs, SQL text, error classes. The server side is in the integration test. */
class PostgresDialectTest {
    private final PostgresDialect dialect = new PostgresDialect();
    private final PostgresKind kind = new PostgresKind();

    @Test
    void otherDatabasesKeepHostPortAndOptions() throws TargetException {
        assertEquals(
                "jdbc:postgresql://h:5433/ivs_clean?ssl=true&sslmode=verify-full",
                dialect.urlForDatabase("jdbc:postgresql://h:5433/ivsbench?ssl=true&sslmode=verify-full", "ivs_clean"));
        assertEquals(
                "jdbc:postgresql://h/postgres", dialect.urlForDatabase("jdbc:postgresql://h/ivsbench", "postgres"));
        assertEquals(
                "jdbc:postgresql://h1:5432,h2:5432/x",
                dialect.urlForDatabase("jdbc:postgresql://h1:5432,h2:5432/db", "x"));
        assertThrows(TargetException.class, () -> dialect.urlForDatabase("jdbc:postgresql://h/db", "a\"b"));
        TargetException wrong = assertThrows(
                TargetException.class, () -> dialect.urlForDatabase("jdbc:mariadb://h/db?password=secret", "x"));
        assertFalse(wrong.getMessage().contains("secret"), wrong.getMessage());
    }

    @Test
    void urlMustNameAValidDatabase() throws ConfigException {
        kind.checkUrl("jdbc:postgresql://127.0.0.1:5432/ivsbench?ApplicationName=x");
        ConfigException none = assertThrows(ConfigException.class, () -> kind.checkUrl("jdbc:postgresql://h:5432"));
        assertEquals("url", none.path());
        assertTrue(none.getMessage().contains("names no database"), none.getMessage());
        ConfigException bad = assertThrows(ConfigException.class, () -> kind.checkUrl("jdbc:postgresql://h/my-db"));
        assertTrue(bad.getMessage().contains("'my-db'"), bad.getMessage());
        assertTrue(kind.accepts("jdbc:postgresql://h/db"));
        assertFalse(kind.accepts("jdbc:postgres://h/db"));
        assertEquals(List.of("POSTGRESQL", "POSTGRES"), kind.names());
    }

    @Test
    void sqlText() {
        TableSpec table = new TableSpec("usertable", "YCSB_KEY", List.of("FIELD0", "FIELD1"), 100, null);
        assertEquals(
                "CREATE TABLE \"usertable\" (\"YCSB_KEY\" VARCHAR(255) COLLATE \"C\" NOT NULL,"
                        + " \"FIELD0\" TEXT, \"FIELD1\" TEXT, PRIMARY KEY (\"YCSB_KEY\"))",
                new SqlStatements(dialect).createTable(table));
        assertEquals(
                "CREATE TABLE \"usertable\" (\"ycsb_key\" INTEGER NOT NULL, \"field1\" VARCHAR(100),"
                        + " PRIMARY KEY (\"ycsb_key\"))",
                new SqlStatements(dialect)
                        .createTable(new TableSpec(
                                "usertable",
                                "ycsb_key",
                                List.of("field1"),
                                100,
                                null,
                                TableSpec.KeyType.INTEGER,
                                true)));
        assertEquals(
                "UPDATE \"usertable\" SET \"FIELD0\" = COALESCE(\"FIELD0\", '') || ? WHERE \"YCSB_KEY\" = ?"
                        + " AND COALESCE(OCTET_LENGTH(\"FIELD0\"), 0) + ? <= ?",
                new SqlStatements(dialect).guardedAppend("usertable", "YCSB_KEY", "FIELD0"));
        assertEquals(
                "SELECT \"FIELD0\" FROM \"usertable\" WHERE \"YCSB_KEY\" = ? FOR UPDATE",
                new SqlStatements(dialect).select("usertable", "YCSB_KEY", List.of("FIELD0"), true));
    }

    @Test
    void errorClassesBySqlState() {
        assertEquals(SqlFailure.SERIALIZATION, dialect.classify(new SQLException("x", "40001")));
        assertEquals(SqlFailure.DEADLOCK, dialect.classify(new SQLException("x", "40P01")));
        assertEquals(SqlFailure.LOCK_TIMEOUT, dialect.classify(new SQLException("x", "55P03")));
        assertEquals(SqlFailure.DUPLICATE_KEY, dialect.classify(new SQLException("x", "23505")));
        for (String state : List.of("08006", "08003", "57P01", "57P02", "57P03")) {
            assertEquals(SqlFailure.CONNECTION_LOST, dialect.classify(new SQLException("x", state)), state);
        }
        assertEquals(
                SqlFailure.CONNECTION_LOST,
                dialect.classify(new SQLException("x", null, new IOException(new ConnectException()))));
        assertEquals(SqlFailure.OTHER, dialect.classify(new SQLException("x", "42601")));
        assertTrue(SqlFailure.SERIALIZATION.isAbort());
        assertEquals("serialization failure", SqlFailure.SERIALIZATION.reason());
    }
}
