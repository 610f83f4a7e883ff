package org.ivsbench.bench.ycsb;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;

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
}
