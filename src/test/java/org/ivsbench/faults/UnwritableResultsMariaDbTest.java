package org.ivsbench.faults;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.testsupport.CliArgs;
import org.ivsbench.testsupport.RunHarness;
import org.ivsbench.testsupport.TestServers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A results folder that cannot be written is a usage error found before the database is touched: with
 * --create --load --execute against MariaDB, exit 2 naming -d, and no table was created (a run that drops
 * and reloads a large table and then cannot write its results would waste the user's hours).
 */
class UnwritableResultsMariaDbTest {
    private static final String TABLE = "faults_never_created";

    @TempDir
    Path tmp;

    @Test
    void unwritableResultsDirectoryFailsBeforeTheDatabaseIsTouched() throws Exception {
        sql("DROP TABLE IF EXISTS " + TABLE);
        Path cfg = tmp.resolve("cfg.xml");
        Files.writeString(
                cfg,
                "<parameters>" + RunHarness.mariadbConnection() + "<terminals>1</terminals>"
                        + "<recordcount>10</recordcount><table>" + TABLE
                        + "</table><monitor><enabled>false</enabled></monitor>"
                        + "<transactiontypes><transactiontype><name>ReadRecord</name></transactiontype></transactiontypes>"
                        + "<works><work><time>1</time><rate>unlimited</rate><weights>100</weights></work></works></parameters>");
        Path file = tmp.resolve("a-file");
        Files.writeString(file, "x");
        CliProcess cli = CliProcess.start(tmp, CliArgs.createLoadExecute(cfg, file.resolve("sub")));
        assertEquals(2, cli.waitFor(60), "exit code; stderr: " + cli.stderr());
        assertTrue(cli.stderr().contains("-d"), "names the option: " + cli.stderr());
        assertFalse(cli.stdout().contains("Created"), cli.stdout());
        try (Connection c = connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA ="
                        + " DATABASE() AND TABLE_NAME = '" + TABLE + "'")) {
            rs.next();
            assertEquals(0, rs.getInt(1), "table " + TABLE + " was not created");
        }
    }

    private static Connection connect() throws Exception {
        return DriverManager.getConnection(
                TestServers.mariadbUrl(), TestServers.mariadbUser(), TestServers.mariadbPassword());
    }

    private static void sql(String statement) throws Exception {
        try (Connection c = connect();
                Statement st = c.createStatement()) {
            st.execute(statement);
        }
    }
}
