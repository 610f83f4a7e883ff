package org.ivsbench.security;

import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.ivsbench.faults.CliProcess;
import org.ivsbench.testsupport.TestServers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * TLS options reach the drivers (docs/trust.md says how to pass them). Without a TLS server: MariaDB asked
 * for sslMode=verify-full by a plain server refuses to go on in plain text and says so; MongoDB with tls=true
 * opens its connection with a TLS ClientHello (record type 0x16), seen by a plain socket standing in for
 * the server, where without it the first bytes are a MongoDB wire message.
 */
class TlsPassThroughTest {
    private static final int TLS_HANDSHAKE_RECORD = 0x16;

    @TempDir
    Path tmp;

    private static String mariadbConfig(String url, String options) {
        return "<parameters><type>MARIADB</type><url>" + url + "</url><username>" + TestServers.mariadbUser()
                + "</username><password>" + TestServers.mariadbPassword() + "</password>" + options
                + "<terminals>1</terminals><recordcount>10</recordcount><table>tls_never_created</table>"
                + "<monitor><enabled>false</enabled></monitor>"
                + "<transactiontypes><transactiontype><name>ReadRecord</name></transactiontype></transactiontypes>"
                + "<works><work><time>1</time><rate>unlimited</rate><weights>100</weights></work></works></parameters>";
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"targetOptions", "url"})
    void mariadbVerifyFullAgainstAPlainServerFailsWithATlsError(String where) throws Exception {
        String url = TestServers.mariadbUrl();
        String options = "<targetOptions><sslMode>verify-full</sslMode></targetOptions>";
        String xml =
                where.equals("url") ? mariadbConfig(url + "?sslMode=verify-full", "") : mariadbConfig(url, options);
        Path cfg = tmp.resolve("tls.xml");
        Files.writeString(cfg, xml);
        CliProcess cli = CliProcess.start(
                tmp,
                "-b",
                "ycsbivs",
                "-c",
                cfg.toString(),
                "--create",
                "-d",
                tmp.resolve("results").toString());
        assertEquals(1, cli.waitFor(60), "exit code; stdout: " + cli.stdout() + "\nstderr: " + cli.stderr());
        assertTrue(cli.stderr().toLowerCase().contains("ssl"), "a TLS error: " + cli.stderr());
        assertFalse(cli.stdout().contains("Created"), "nothing ran in plain text: " + cli.stdout());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"targetOptions, true", "url, true", "none, false"})
    void mongoTlsOptionMakesTheDriverSpeakTls(String where, boolean tls) throws Exception {
        try (ServerSocket fake = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
            fake.setSoTimeout(20_000);
            String url = "mongodb://127.0.0.1:" + fake.getLocalPort() + "/ivsbench"
                    + (where.equals("url") ? "?tls=true" : "");
            String options = where.equals("targetOptions") ? "<targetOptions><tls>true</tls></targetOptions>" : "";
            Path cfg = tmp.resolve("mongo-tls.xml");
            Files.writeString(
                    cfg,
                    "<parameters><type>MONGODB</type><url>" + url + "</url>" + options
                            + "<terminals>1</terminals><recordcount>10</recordcount><monitor><enabled>false</enabled></monitor>"
                            + "<transactiontypes><transactiontype><name>ReadRecord</name></transactiontype></transactiontypes>"
                            + "<works><work><time>1</time><rate>unlimited</rate><weights>100</weights></work></works>"
                            + "</parameters>");
            CliProcess cli = CliProcess.start(
                    tmp,
                    "-b",
                    "ycsbivs",
                    "-c",
                    cfg.toString(),
                    "--create",
                    "-d",
                    tmp.resolve("results").toString());
            try (Socket client = fake.accept();
                    InputStream in = client.getInputStream()) {
                int first = in.read();
                if (tls) {
                    assertEquals(TLS_HANDSHAKE_RECORD, first, "a TLS ClientHello first");
                } else {
                    assertNotEquals(TLS_HANDSHAKE_RECORD, first, "plain MongoDB wire protocol first");
                }
            } finally {
                cli.destroyIfAlive();
            }
        }
    }

    @Test
    void sanityTheMariaDbConfigWorksWithoutTls() throws Exception {
        // The failure above is the TLS option's doing, not a broken config.
        Path cfg = tmp.resolve("plain.xml");
        Files.writeString(
                cfg, mariadbConfig(TestServers.mariadbUrl(), "").replace("tls_never_created", "tls_plain_ok"));
        CliProcess cli = CliProcess.start(
                tmp,
                "-b",
                "ycsbivs",
                "-c",
                cfg.toString(),
                "--create",
                "-d",
                tmp.resolve("results").toString());
        assertEquals(0, cli.waitFor(60), "exit code; stderr: " + cli.stderr());
    }
}
