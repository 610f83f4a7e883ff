package org.ivsbench.bench.ycsb;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.cli.Main;
import org.ivsbench.testsupport.TestServers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * -b ycsb on the private PostgreSQL: BenchBase's PostgreSQL sample config (config/postgres/sample_ycsb_config.xml,
 * only URL and credentials changed; here also a short phase) creates BenchBase's table, loads and runs every
 * procedure; a table made with BenchBase's DDL and loaded as BenchBase loads it is executed.
 */
class YcsbPostgresTest {
    @TempDir
    Path tmp;

    private Path sample(String time) throws Exception {
        String xml = Files.readString(Path.of("config/postgres/sample_ycsb_config.xml"))
                .replace(
                        "jdbc:postgresql://127.0.0.1:5432/ivsbench?sslmode=disable&amp;ApplicationName=ycsb"
                                + "&amp;reWriteBatchedInserts=true",
                        TestServers.postgresUrl().replace("&", "&amp;"))
                .replace("<username>ivs</username>", "<username>" + TestServers.postgresUser() + "</username>")
                .replace("<password>ivs</password>", "<password>" + TestServers.postgresPassword() + "</password>")
                .replace("<time>60</time>", "<time>" + time + "</time>")
                .replace(
                        "<terminals>1</terminals>",
                        "<terminals>1</terminals><monitor><enabled>false</enabled></monitor>");
        Path config = tmp.resolve("sample_ycsb_config.xml");
        Files.writeString(config, xml);
        return config;
    }

    private static Connection connect() throws Exception {
        return DriverManager.getConnection(
                TestServers.postgresUrl(), TestServers.postgresUser(), TestServers.postgresPassword());
    }

    @Test
    void benchBasesSampleConfigCreatesLoadsAndExecutes() throws Exception {
        Path results = tmp.resolve("results");
        assertEquals(
                0,
                Main.execute(
                        "-b",
                        "ycsb",
                        "-c",
                        sample("2").toString(),
                        "--create",
                        "--load",
                        "--execute",
                        "-d",
                        results.toString()));
        try (Connection c = connect();
                Statement st = c.createStatement()) {
            List<String> columns = new ArrayList<>();
            try (ResultSet rs = st.executeQuery("SELECT column_name, data_type, character_maximum_length FROM"
                    + " information_schema.columns WHERE table_name = 'usertable' ORDER BY ordinal_position")) {
                while (rs.next()) {
                    columns.add(rs.getString(1) + " " + rs.getString(2) + " " + rs.getString(3));
                }
            }
            assertEquals("ycsb_key integer null", columns.get(0).toLowerCase());
            assertEquals("field1 character varying 100", columns.get(1).toLowerCase());
            assertEquals("field10 character varying 100", columns.get(10).toLowerCase());
            try (ResultSet rs = st.executeQuery("SELECT a.attname FROM pg_index i JOIN pg_attribute a"
                    + " ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)"
                    + " WHERE i.indrelid = 'usertable'::regclass AND i.indisprimary")) {
                assertTrue(rs.next(), "usertable has a primary key");
                assertEquals("ycsb_key", rs.getString(1));
                assertTrue(!rs.next(), "the primary key is ycsb_key alone");
            }
            JsonNode phase = BenchBaseTables.phase(results);
            try (ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM usertable WHERE ycsb_key < 1000")) {
                rs.next();
                long deleted = phase.get("transactions")
                        .get("DeleteRecord")
                        .get("counts")
                        .get("ok")
                        .asLong();
                assertEquals(1000, rs.getLong(1) + deleted, "the loaded keys 0 .. 999, less the ones deleted");
            }
            for (String type : List.of(
                    "ReadRecord",
                    "InsertRecord",
                    "ScanRecord",
                    "UpdateRecord",
                    "DeleteRecord",
                    "ReadModifyWriteRecord")) {
                JsonNode counts = phase.get("transactions").get(type).get("counts");
                assertTrue(counts.get("ok").asLong() > 0, type + ": " + counts);
                assertEquals(0, counts.get("error").asLong(), type + ": " + counts);
            }
        }
    }

    @Test
    void executesOnATableMadeWithBenchBasesDdl() throws Exception {
        try (Connection c = connect()) {
            BenchBaseTables.executeOnBenchBasesTable(c, sample("1"), tmp.resolve("results"));
        }
    }
}
