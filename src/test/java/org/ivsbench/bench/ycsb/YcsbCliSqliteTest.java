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
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.cli.Main;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** -b ycsb on SQLite: BenchBase's sample config, BenchBase's table shape in both directions. */
class YcsbCliSqliteTest {
    private static final List<String> TYPES = List.of(
            "ReadRecord", "InsertRecord", "ScanRecord", "UpdateRecord", "DeleteRecord", "ReadModifyWriteRecord");

    @TempDir
    Path tmp;

    /** BenchBase's sample with a SQLite URL and a short phase (count instead of 60 s, the mix kept). */
    private Path config(Path db, String extra) throws Exception {
        String xml = Files.readString(Path.of("config/sqlite/sample_ycsb_config.xml"))
                .replace("jdbc:sqlite:results/ycsb.db", "jdbc:sqlite:" + db.toAbsolutePath())
                .replace("<time>60</time>", "<count>600</count>")
                .replace("<rate>10000</rate>", "<rate>unlimited</rate>")
                .replace(
                        "<terminals>1</terminals>",
                        "<terminals>2</terminals>" + extra + "<monitor><enabled>false</enabled></monitor>");
        Path f = tmp.resolve("ycsb.xml");
        Files.writeString(f, xml);
        return f;
    }

    private static JsonNode summary(Path results) throws Exception {
        try (var dirs = Files.list(results)) {
            Path dir = dirs.filter(Files::isDirectory).findFirst().orElseThrow();
            assertTrue(dir.getFileName().toString().startsWith("ycsb_"), dir.toString());
            return new ObjectMapper().readTree(dir.resolve("summary.json").toFile());
        }
    }

    @Test
    void createsBenchBasesTableLoadsItAndRunsTheSixProcedures() throws Exception {
        Path db = tmp.resolve("y.db");
        Path results = tmp.resolve("results");
        int code = Main.execute(
                "-b",
                "ycsb",
                "-c",
                config(db, "<fieldSize>20</fieldSize>").toString(),
                "--create",
                "--load",
                "--execute",
                "-d",
                results.toString());
        assertEquals(0, code);

        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
                Statement st = c.createStatement()) {
            List<String> columns = new ArrayList<>();
            try (ResultSet rs = st.executeQuery("PRAGMA table_info(usertable)")) {
                while (rs.next()) {
                    columns.add(rs.getString("name") + " " + rs.getString("type") + (rs.getInt("pk") > 0 ? " pk" : ""));
                }
            }
            assertEquals("ycsb_key INT pk", columns.get(0));
            assertEquals(11, columns.size());
            for (int i = 1; i <= 10; i++) {
                assertEquals("field" + i + " VARCHAR(100)", columns.get(i));
            }
            // Keys are integers (typeof), the loaded ones 0 .. 999; inserted ones follow 999.
            try (ResultSet rs = st.executeQuery("SELECT MIN(ycsb_key), typeof(MIN(ycsb_key)), "
                    + "(SELECT COUNT(*) FROM usertable WHERE ycsb_key < 1000), MAX(LENGTH(field3)) FROM usertable")) {
                rs.next();
                assertEquals("integer", rs.getString(2));
                assertTrue(rs.getLong(1) >= 0);
                assertTrue(rs.getLong(3) > 900 && rs.getLong(3) <= 1000, "about 1000 loaded rows minus deletes");
                assertEquals(20, rs.getInt(4), "fieldSize");
            }
        }
        JsonNode phase = summary(results).get("phases").get(0);
        assertEquals(600, phase.get("operations").asLong());
        for (String type : TYPES) {
            JsonNode t = phase.get("transactions").get(type);
            assertTrue(t != null && t.get("counts").get("ok").asLong() > 0, type + " ran: " + phase);
            assertEquals(0, t.get("counts").get("error").asLong(), type + " had errors: " + t);
        }
    }

    @Test
    void executesOnATableBenchBaseCreatedAndLoaded() throws Exception {
        Path db = tmp.resolve("bb.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db)) {
            BenchBaseTables.createAndLoad(c, 1000);
        }
        Path results = tmp.resolve("results");
        int code = Main.execute("-b", "ycsb", "-c", config(db, "").toString(), "--execute", "-d", results.toString());
        assertEquals(0, code);
        JsonNode phase = summary(results).get("phases").get(0);
        for (String type : List.of("ReadRecord", "UpdateRecord", "ReadModifyWriteRecord", "ScanRecord")) {
            JsonNode counts = phase.get("transactions").get(type).get("counts");
            assertTrue(counts.get("ok").asLong() > 0, type + ": " + counts);
            assertEquals(0, counts.get("error").asLong(), type + ": " + counts);
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM usertable WHERE field1 <> '" + "x".repeat(100)
                        + "' AND ycsb_key < 1000")) {
            rs.next();
            assertTrue(rs.getLong(1) > 0, "updates reached BenchBase's rows");
        }
    }

    @Test
    void badParametersAreOneLineAndExitTwo() throws Exception {
        Path db = tmp.resolve("bad.db");
        assertEquals(
                Main.USAGE,
                Main.execute(
                        "-b",
                        "ycsb",
                        "-c",
                        config(db, "<skewFactor>1.5</skewFactor>").toString(),
                        "--create"));
        assertEquals(
                Main.USAGE,
                Main.execute(
                        "-b",
                        "ycsb",
                        "-c",
                        config(db, "<fieldSize>0</fieldSize>").toString(),
                        "--create"));
        assertTrue(Files.notExists(db), "nothing touched the database");
        Path mongo = tmp.resolve("mongo.xml");
        Files.writeString(
                mongo,
                Files.readString(config(db, ""))
                        .replace("<type>SQLITE</type>", "<type>MONGODB</type>")
                        .replace("<driver>org.sqlite.JDBC</driver>", "")
                        .replaceAll("<url>[^<]*</url>", "<url>mongodb://127.0.0.1:1/x</url>")
                        .replace("<isolation>TRANSACTION_SERIALIZABLE</isolation>", ""));
        assertEquals(Main.USAGE, Main.execute("-b", "ycsb", "-c", mongo.toString(), "--create"));
    }
}
