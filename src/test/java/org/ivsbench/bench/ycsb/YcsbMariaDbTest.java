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
 * -b ycsb on the private MariaDB: BenchBase's own sample config (only URL and credentials changed, and a short
 * phase) creates, loads and runs; a table made with BenchBase's DDL and loaded as BenchBase loads it is executed.
 */
class YcsbMariaDbTest {
    @TempDir
    Path tmp;

    private Path sample(String time) throws Exception {
        String xml = Files.readString(Path.of("config/mariadb/sample_ycsb_config.xml"))
                .replace("jdbc:mariadb://127.0.0.1:3306/ivsbench", TestServers.mariadbUrl())
                .replace("<username>ivs</username>", "<username>" + TestServers.mariadbUser() + "</username>")
                .replace("<password>ivs</password>", "<password>" + TestServers.mariadbPassword() + "</password>")
                .replace("<time>60</time>", "<time>" + time + "</time>")
                .replace(
                        "<terminals>1</terminals>",
                        "<terminals>1</terminals><monitor><enabled>false</enabled></monitor>");
        Path f = tmp.resolve("sample_ycsb_config.xml");
        Files.writeString(f, xml);
        return f;
    }

    private static Connection connect() throws Exception {
        return DriverManager.getConnection(
                TestServers.mariadbUrl(), TestServers.mariadbUser(), TestServers.mariadbPassword());
    }

    @Test
    void benchBasesSampleConfigCreatesLoadsAndExecutes() throws Exception {
        Path results = tmp.resolve("results");
        int code = Main.execute(
                "-b",
                "ycsb",
                "-c",
                sample("2").toString(),
                "--create",
                "--load",
                "--execute",
                "-d",
                results.toString());
        assertEquals(0, code);
        try (Connection c = connect();
                Statement st = c.createStatement()) {
            List<String> columns = new ArrayList<>();
            try (ResultSet rs = st.executeQuery("SELECT COLUMN_NAME, COLUMN_TYPE, COLUMN_KEY FROM"
                    + " information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'usertable'"
                    + " ORDER BY ORDINAL_POSITION")) {
                while (rs.next()) {
                    columns.add(rs.getString(1) + " " + rs.getString(2) + " " + rs.getString(3));
                }
            }
            assertEquals("ycsb_key int(11) PRI", columns.get(0));
            assertEquals(
                    List.of("field1 varchar(100) ", "field10 varchar(100) "), List.of(columns.get(1), columns.get(10)));
        }
        JsonNode phase = BenchBaseTables.phase(results);
        try (Connection c = connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM usertable WHERE ycsb_key < 1000")) {
            rs.next();
            long deleted = phase.get("transactions")
                    .get("DeleteRecord")
                    .get("counts")
                    .get("ok")
                    .asLong();
            assertEquals(1000, rs.getLong(1) + deleted, "the loaded keys 0 .. 999, less the ones deleted");
        }
        for (String type : List.of(
                "ReadRecord", "InsertRecord", "ScanRecord", "UpdateRecord", "DeleteRecord", "ReadModifyWriteRecord")) {
            JsonNode counts = phase.get("transactions").get(type).get("counts");
            assertTrue(counts.get("ok").asLong() > 0, type + ": " + counts);
            assertEquals(0, counts.get("error").asLong(), type + ": " + counts);
        }
    }

    @Test
    void executesOnATableMadeWithBenchBasesDdl() throws Exception {
        try (Connection c = connect()) {
            BenchBaseTables.executeOnBenchBasesTable(c, sample("1"), tmp.resolve("results"));
        }
    }
}
