package org.ivsbench.monitor;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.db.Target;
import org.ivsbench.db.Targets;
import org.ivsbench.testsupport.Await;
import org.ivsbench.testsupport.TestServers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The monitor's record of settings changed while a run goes on, against the private MariaDB: a SET GLOBAL made
 * while the watch reads is recorded exactly (the setting, old and new value, between which reads), and reads in
 * which nothing changed record nothing (the header alone).
 */
class SettingsWatchMariaDbTest {
    private static final String SETTING = "max_connect_errors";

    @TempDir
    Path dir;

    @Test
    void aSetGlobalMidRunIsRecordedExactlyAndNothingElse() throws Exception {
        Path file = dir.resolve(SettingsWatch.FILE);
        try (Target target = Targets.open(TestServers.mariadb());
                Connection admin = DriverManager.getConnection(
                        TestServers.mariadbUrl(), TestServers.mariadbUser(), TestServers.mariadbPassword())) {
            long old = globalValue(admin);
            try {
                SettingsWatch watch = SettingsWatch.start(target, 100, dir).orElseThrow();
                try {
                    // three reads after the baseline with nothing changed: the header alone
                    Await.until("three reads after the baseline", Duration.ofSeconds(60), watch::reads, n -> n >= 4);
                    assertEquals(List.of(SettingsWatch.HEADER), Files.readAllLines(file));

                    int before = watch.reads();
                    try (Statement st = admin.createStatement()) {
                        st.execute("SET GLOBAL " + SETTING + " = " + (old + 7));
                    }
                    Await.until(
                            "a read after the SET GLOBAL", Duration.ofSeconds(60), watch::reads, n -> n >= before + 2);
                } finally {
                    watch.close();
                }
                List<String> lines = Files.readAllLines(file);
                assertEquals(2, lines.size(), "the header and one change: " + lines);
                String[] row = lines.get(1).split(",", -1);
                assertEquals(SETTING, row[2]);
                assertEquals(Long.toString(old), row[3]);
                assertEquals(Long.toString(old + 7), row[4]);
                long seen = Long.parseLong(row[0]);
                long since = Long.parseLong(row[1]);
                assertTrue(since < seen, "the change lies between two reads: " + lines.get(1));
            } finally {
                try (Statement st = admin.createStatement()) {
                    st.execute("SET GLOBAL " + SETTING + " = " + old);
                }
            }
        }
    }

    @Test
    void aValueWithACommaOrAQuoteIsOneCsvCell() {
        assertEquals("on", SettingsWatch.cell("on"));
        assertEquals("\"a=on,b=off\"", SettingsWatch.cell("a=on,b=off"));
        assertEquals("\"say \"\"hi\"\"\"", SettingsWatch.cell("say \"hi\""));
        assertEquals("", SettingsWatch.cell(null));
    }

    private static long globalValue(Connection c) throws Exception {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT @@GLOBAL." + SETTING)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
