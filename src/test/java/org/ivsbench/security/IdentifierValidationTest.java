package org.ivsbench.security;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.ivsbench.faults.CliProcess;
import org.ivsbench.testsupport.TestServers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Names from the config that end up in SQL or in the server's handshake are validated before anything
 * connects: a table name or a database name in the URL carrying SQL is a usage error (exit 2) naming the
 * element and the value, on one line.
 */
class IdentifierValidationTest {
    @TempDir
    Path tmp;

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "table | usertable; DROP TABLE x",
                "table | user`table",
                "table | 1table",
                "url   | ivsbench`; DROP DATABASE ivsbench; --",
                "url   | ivs bench",
                "url   | ivsbench;x",
                "url   | ../mysql"
            })
    void injectionInAnIdentifierIsExit2NamingTheElement(String element, String value) throws Exception {
        String url = TestServers.mariadbUrl();
        String table = "usertable";
        if (element.equals("table")) {
            table = value;
        } else {
            url = url.substring(0, url.lastIndexOf('/') + 1) + value;
        }
        Path cfg = tmp.resolve("ident.xml");
        Files.writeString(
                cfg,
                "<parameters><type>MARIADB</type><url>" + xml(url) + "</url><username>"
                        + TestServers.mariadbUser() + "</username><password>" + TestServers.mariadbPassword()
                        + "</password>"
                        + "<terminals>1</terminals><recordcount>10</recordcount><table>" + xml(table) + "</table>"
                        + "<monitor><enabled>false</enabled></monitor>"
                        + "<transactiontypes><transactiontype><name>ReadRecord</name></transactiontype></transactiontypes>"
                        + "<works><work><time>1</time><rate>unlimited</rate><weights>100</weights></work></works></parameters>");
        CliProcess cli = CliProcess.start(
                tmp,
                "-b",
                "ycsbivs",
                "-c",
                cfg.toString(),
                "--create",
                "--load",
                "--execute",
                "-d",
                tmp.resolve("results").toString());
        assertEquals(2, cli.waitFor(60), "exit code; stdout: " + cli.stdout() + "\nstderr: " + cli.stderr());
        String err = cli.stderr().strip();
        assertEquals(1, err.lines().count(), "one line: " + err);
        assertTrue(err.contains(element + ":"), "names the element: " + err);
        assertTrue(err.contains(value.strip()), "names the value: " + err);
        assertTrue(cli.stdout().isEmpty(), "nothing ran: " + cli.stdout());
    }

    private static String xml(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
