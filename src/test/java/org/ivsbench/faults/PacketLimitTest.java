package org.ivsbench.faults;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Iterator;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.ivsbench.testsupport.CliArgs;
import org.ivsbench.testsupport.RunHarness;
import org.ivsbench.testsupport.TestServers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Values that grow past the server's max_allowed_packet are outcomes, not crashes: with the server's limit
 * set to 16 KB and 3 KB appends, the first extends of a field succeed, the later ones are counted as error
 * with a reason naming max_allowed_packet, the run completes with exit 0, and no value was lost (strict
 * mode must turn the server-side CONCAT overflow into an error, not a NULL).
 */
class PacketLimitTest {
    private static final int LIMIT = 16 * 1024;
    private static final int APPEND = 3000;

    @TempDir
    Path tmp;

    @ParameterizedTest(name = "extendmethod={0}")
    @ValueSource(strings = {"client", "server"})
    void extendsPastMaxAllowedPacketAreErrorsWithAReason(String method) throws Exception {
        String table = "faults_packet_" + method;
        Path cfg = tmp.resolve("packet.xml");
        Files.writeString(
                cfg,
                "<parameters>" + RunHarness.mariadbConnection()
                        + "<terminals>1</terminals><randomSeed>3</randomSeed><recordcount>20</recordcount>"
                        + "<table>" + table + "</table><extendmethod>" + method + "</extendmethod>"
                        + "<extendfieldlength>" + APPEND
                        + "</extendfieldlength><monitor><enabled>false</enabled></monitor>"
                        + "<transactiontypes><transactiontype><name>ExtendRecord</name></transactiontype></transactiontypes>"
                        + "<works><work><count>1500</count><rate>unlimited</rate><weights>100</weights>"
                        + "<distribution>uniform</distribution></work></works></parameters>");
        long original = globalPacketLimit();
        CliProcess cli;
        try {
            setGlobalPacketLimit(LIMIT); // new connections only: the CLI below opens its own
            cli = CliProcess.start(tmp, CliArgs.createLoadExecute(cfg, tmp.resolve("results")));
            assertEquals(0, cli.waitFor(120), "exit code; stdout: " + cli.stdout() + "\nstderr: " + cli.stderr());
        } finally {
            setGlobalPacketLimit(original);
        }
        Results results = new Results(cli.resultsDir());
        results.assertFilesPresent();
        results.assertSummaryMatchesSamples();
        JsonNode summary = results.summary();
        assertTrue(summary.get("complete").asBoolean());
        JsonNode extend = summary.get("phases").get(0).get("transactions").get("ExtendRecord");
        JsonNode counts = extend.get("counts");
        assertEquals(1500, extend.get("operations").asLong(), "every operation counted once");
        assertTrue(counts.get("ok").asLong() > 0, "extends under the limit succeed: " + counts);
        long errors = counts.get("error").asLong();
        assertTrue(errors > 0, "extends past the limit are errors: " + counts);
        long named = 0;
        for (Iterator<Map.Entry<String, JsonNode>> it = extend.get("errors").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> reason = it.next();
            assertTrue(reason.getKey().contains("max_allowed_packet"), "reason names the limit: " + reason.getKey());
            named += reason.getValue().asLong();
        }
        assertEquals(errors, named, "every error has the reason: " + extend.get("errors"));
        assertFalse(cli.stderr().contains("Exception"), "no stack trace: " + cli.stderr());

        // Nothing was lost: no field became NULL or shrank below its loaded length, none passed the limit.
        try (Connection c = DriverManager.getConnection(
                        TestServers.mariadbUrl(), TestServers.mariadbUser(), TestServers.mariadbPassword());
                Statement st = c.createStatement()) {
            for (int f = 0; f < 10; f++) {
                try (ResultSet rs = st.executeQuery("SELECT COUNT(*), MIN(LENGTH(FIELD" + f + ")), MAX(LENGTH(FIELD" + f
                        + ")), SUM(FIELD" + f + " IS NULL) FROM " + table)) {
                    rs.next();
                    assertEquals(20, rs.getLong(1));
                    assertEquals(0, rs.getLong(4), "FIELD" + f + ": no NULL values");
                    assertTrue(rs.getLong(2) >= 100, "FIELD" + f + " min length " + rs.getLong(2));
                    assertTrue(rs.getLong(3) <= LIMIT, "FIELD" + f + " max length " + rs.getLong(3));
                }
            }
        }
    }

    private static Connection connect() throws Exception {
        return DriverManager.getConnection(
                TestServers.mariadbUrl(), TestServers.mariadbUser(), TestServers.mariadbPassword());
    }

    private static long globalPacketLimit() throws Exception {
        try (Connection c = connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT @@GLOBAL.max_allowed_packet")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static void setGlobalPacketLimit(long bytes) throws Exception {
        try (Connection c = connect();
                Statement st = c.createStatement()) {
            st.execute("SET GLOBAL max_allowed_packet = " + bytes);
        }
    }
}
