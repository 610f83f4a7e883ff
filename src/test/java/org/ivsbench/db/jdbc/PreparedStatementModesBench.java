package org.ivsbench.db.jdbc;

import java.sql.*;
import java.util.*;

/**
 * Times client- vs server-side prepared statements on MariaDB, alternating modes in one run (the choice
 * in MariaDbDialect). Not a test: run with
 * {@code java -cp <test classpath> org.ivsbench.db.jdbc.PreparedStatementModesBench $IVS_MARIADB_URL}.
 */
public final class PreparedStatementModesBench {
    public static void main(String[] a) throws Exception {
        String url = a[0];
        try (Connection c = DriverManager.getConnection(url, "ivs", "ivs");
                Statement st = c.createStatement()) {
            st.execute("DROP TABLE IF EXISTS pb");
            st.execute(
                    "CREATE TABLE pb (k VARCHAR(255) CHARACTER SET ascii COLLATE ascii_bin PRIMARY KEY, f0 LONGTEXT, f1 LONGTEXT) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin");
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO pb VALUES (?,?,?)")) {
                for (int i = 0; i < 1000; i++) {
                    ps.setString(1, "user" + i);
                    ps.setString(2, "x".repeat(500));
                    ps.setString(3, "y".repeat(500));
                    ps.executeUpdate();
                }
            }
        }
        String big = "z".repeat(1_000_000);
        for (int round = 0; round < 3; round++)
            for (String mode : new String[] {"false", "true"}) {
                Properties p = new Properties();
                p.setProperty("user", "ivs");
                p.setProperty("password", "ivs");
                p.setProperty("useServerPrepStmts", mode);
                try (Connection c = DriverManager.getConnection(url, p)) {
                    PreparedStatement r = c.prepareStatement("SELECT f0, f1 FROM pb WHERE k = ?");
                    PreparedStatement u = c.prepareStatement("UPDATE pb SET f0 = ? WHERE k = ?");
                    PreparedStatement rb = c.prepareStatement("SELECT f0 FROM pb WHERE k = ?");
                    Random rnd = new Random(1);
                    long t0 = System.nanoTime();
                    for (int i = 0; i < 5000; i++) {
                        r.setString(1, "user" + rnd.nextInt(1000));
                        try (ResultSet rs = r.executeQuery()) {
                            rs.next();
                            rs.getString(1);
                            rs.getString(2);
                        }
                    }
                    long t1 = System.nanoTime();
                    for (int i = 0; i < 100; i++) {
                        u.setString(1, big);
                        u.setString(2, "user" + i);
                        u.executeUpdate();
                    }
                    long t2 = System.nanoTime();
                    for (int i = 0; i < 100; i++) {
                        rb.setString(1, "user" + i);
                        try (ResultSet rs = rb.executeQuery()) {
                            rs.next();
                            rs.getString(1);
                        }
                    }
                    long t3 = System.nanoTime();
                    System.out.printf(
                            "serverPrep=%s small read %.1f us, 1MB update %.0f us, 1MB read %.0f us%n",
                            mode, (t1 - t0) / 5000 / 1e3, (t2 - t1) / 100 / 1e3, (t3 - t2) / 100 / 1e3);
                }
            }
        try (Connection c = DriverManager.getConnection(url, "ivs", "ivs");
                Statement st = c.createStatement()) {
            st.execute("DROP TABLE pb");
        }
    }
}
