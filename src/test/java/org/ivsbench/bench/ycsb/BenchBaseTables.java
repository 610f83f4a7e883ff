package org.ivsbench.bench.ycsb;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.ivsbench.cli.Main;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A usertable made as BenchBase makes it: its DDL (ddl-mysql.sql's shape, written here from the documented
 * facts) and rows keyed 0 .. n-1 with ten 100-character fields, so the tests can check that ivsbench's ycsb runs
 * on a table it did not create.
 */
final class BenchBaseTables {
    private BenchBaseTables() {}

    static void createAndLoad(Connection c, int rows) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("DROP TABLE IF EXISTS usertable");
            StringBuilder ddl = new StringBuilder("CREATE TABLE usertable (ycsb_key int PRIMARY KEY");
            for (int i = 1; i <= 10; i++) {
                ddl.append(", field").append(i).append(" varchar(100)");
            }
            st.execute(ddl.append(")").toString());
        }
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(false);
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO usertable VALUES (?,?,?,?,?,?,?,?,?,?,?)")) {
            for (int key = 0; key < rows; key++) {
                ps.setInt(1, key);
                for (int f = 2; f <= 11; f++) {
                    ps.setString(f, "x".repeat(100));
                }
                ps.addBatch();
            }
            ps.executeBatch();
        }
        c.commit();
        c.setAutoCommit(auto);
    }

    /** The first phase of the one run folder under {@code results}. */
    static JsonNode phase(Path results) throws Exception {
        try (var dirs = Files.list(results)) {
            Path dir = dirs.filter(Files::isDirectory).findFirst().orElseThrow();
            return new ObjectMapper()
                    .readTree(dir.resolve("summary.json").toFile())
                    .get("phases")
                    .get(0);
        }
    }

    /**
     * Makes BenchBase's table of 1,000 rows over {@code c}, runs {@code config} with -b ycsb --execute only, and
     * checks that the procedures ran without errors and their updates reached BenchBase's rows.
     */
    static void executeOnBenchBasesTable(Connection c, Path config, Path results) throws Exception {
        createAndLoad(c, 1000);
        int code = Main.execute("-b", "ycsb", "-c", config.toString(), "--execute", "-d", results.toString());
        assertEquals(0, code);
        JsonNode phase = phase(results);
        for (String type : List.of("ReadRecord", "UpdateRecord", "ScanRecord", "ReadModifyWriteRecord")) {
            JsonNode counts = phase.get("transactions").get(type).get("counts");
            assertTrue(counts.get("ok").asLong() > 0, type + ": " + counts);
            assertEquals(0, counts.get("error").asLong(), type + ": " + counts);
        }
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM usertable WHERE ycsb_key < 1000 AND field2 <> '"
                        + "x".repeat(100) + "'")) {
            rs.next();
            assertTrue(rs.getLong(1) > 0, "updates reached BenchBase's rows");
        }
    }
}
