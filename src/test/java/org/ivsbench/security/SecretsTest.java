package org.ivsbench.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.faults.CliProcess;
import org.ivsbench.faults.MariaDbServer;
import org.ivsbench.testsupport.TestServers;

/**
 * The database password never leaves the process: not into the results folder (every file, every byte),
 * not into what the CLI prints (stdout, stderr, the slf4j log at debug level), not into the process list
 * (it comes from the config, an environment variable or a file, never from an argument). Checked with a
 * user whose password is unique to the test, so a match cannot be a coincidence, for each password source
 * and for a failed login with a wrong password.
 */
class SecretsTest {
    private static final String USER = "ivs_secret_test";
    private static final String PASSWORD = "Pw-" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
    private static final List<String> DEBUG_LOG = List.of("-Dorg.slf4j.simpleLogger.defaultLogLevel=debug");

    @TempDir
    Path tmp;

    @BeforeAll
    static void createUser() throws Exception {
        // The test user 'ivs' cannot GRANT; root can, through the server's own defaults file.
        MariaDbServer.fromEnvironment().rootSql("CREATE OR REPLACE USER '" + USER + "'@'127.0.0.1' IDENTIFIED BY '"
                + PASSWORD + "'; GRANT ALL PRIVILEGES ON *.* TO '" + USER + "'@'127.0.0.1';");
    }

    @AfterAll
    static void dropUser() throws Exception {
        MariaDbServer.fromEnvironment().rootSql("DROP USER IF EXISTS '" + USER + "'@'127.0.0.1'");
    }

    private static String config(String credentials, String url) {
        return "<parameters><type>MARIADB</type><url>" + url + "</url><username>" + USER + "</username>"
                + credentials + "<terminals>1</terminals><recordcount>50</recordcount><table>secret_test</table>"
                + "<monitor><enabled>false</enabled></monitor>"
                + "<transactiontypes><transactiontype><name>ReadRecord</name></transactiontype>"
                + "<transactiontype><name>ExtendRecord</name></transactiontype></transactiontypes>"
                + "<works><work><time>1</time><rate>unlimited</rate><weights>50,50</weights></work></works>"
                + "</parameters>";
    }

    private CliProcess run(String xml, Map<String, String> env, String secret) throws Exception {
        Path cfg = tmp.resolve("secret.xml");
        Files.writeString(cfg, xml);
        CliProcess cli = CliProcess.start(tmp, env, DEBUG_LOG, "-b", "ycsbivs", "-c", cfg.toString(), "--create",
                "--load", "--execute", "-d", tmp.resolve("results").toString());
        try {
            // The process list: what `ps` shows of the running benchmark.
            String cmdline = Files.readString(Path.of("/proc", Long.toString(cli.pid()), "cmdline"),
                    StandardCharsets.UTF_8);
            assertFalse(cmdline.contains(secret), "the password is on the command line: " + cmdline);
            cli.waitFor(60);
        } finally {
            cli.destroyIfAlive();
        }
        assertFalse(cli.stdout().contains(secret), "stdout shows the password:\n" + cli.stdout());
        assertFalse(cli.stderr().contains(secret), "stderr (log) shows the password:\n" + cli.stderr());
        return cli;
    }

    private static void assertNotInResults(Path dir, String secret) throws IOException {
        List<Path> files = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.filter(Files::isRegularFile).forEach(files::add);
        }
        assertTrue(files.size() >= 5, "a results folder: " + files);
        byte[] needle = secret.getBytes(StandardCharsets.UTF_8);
        for (Path f : files) {
            byte[] content = Files.readAllBytes(f);
            assertFalse(indexOf(content, needle) >= 0, f + " holds the password");
        }
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    private void assertRunSucceeded(CliProcess cli) throws IOException {
        assertEquals(0, cli.process().exitValue(), "exit code; stdout: " + cli.stdout() + "\nstderr: " + cli.stderr());
        assertNotInResults(cli.resultsDir(), PASSWORD);
        assertTrue(Files.readString(cli.resultsDir().resolve("config.xml")).contains("*****")
                || !Files.readString(cli.resultsDir().resolve("config.xml")).contains("<password>"));
    }

    @Test
    void inlinePasswordStaysOutOfResultsOutputAndProcessList() throws Exception {
        assertRunSucceeded(run(config("<password>" + PASSWORD + "</password>", TestServers.mariadbUrl()), Map.of(),
                PASSWORD));
    }

    @Test
    void passwordInTheUrlIsRedactedToo() throws Exception {
        String url = TestServers.mariadbUrl() + "?password=" + PASSWORD;
        assertRunSucceeded(run(config("", url), Map.of(), PASSWORD));
    }

    @Test
    void passwordEnvWorksEndToEnd() throws Exception {
        assertRunSucceeded(run(config("<passwordEnv>IVS_TEST_SECRET</passwordEnv>", TestServers.mariadbUrl()),
                Map.of("IVS_TEST_SECRET", PASSWORD), PASSWORD));
    }

    @Test
    void passwordFileWorksEndToEnd() throws Exception {
        Files.writeString(tmp.resolve("db.secret"), PASSWORD + "\n");
        // Relative to the config's folder.
        assertRunSucceeded(run(config("<passwordFile>db.secret</passwordFile>", TestServers.mariadbUrl()), Map.of(),
                PASSWORD));
    }

    @Test
    void wrongPasswordFailsWithoutShowingIt() throws Exception {
        String wrong = "Wrong-" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
        CliProcess cli = run(config("<password>" + wrong + "</password>", TestServers.mariadbUrl()), Map.of(), wrong);
        assertEquals(1, cli.process().exitValue(), "exit code; stderr: " + cli.stderr());
        assertTrue(cli.stderr().contains("Access denied"), "says why: " + cli.stderr());
        assertFalse(Files.exists(tmp.resolve("results")) && Files.list(tmp.resolve("results")).findAny().isPresent(),
                "no results folder for a run that never connected");
    }

    @Test
    void wrongPasswordInTheUrlFailsWithoutShowingIt() throws Exception {
        String wrong = "Wrong-" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
        CliProcess cli = run(config("", TestServers.mariadbUrl() + "?password=" + wrong), Map.of(), wrong);
        assertEquals(1, cli.process().exitValue(), "exit code; stderr: " + cli.stderr());
        assertTrue(cli.stderr().contains("Access denied"), "says why: " + cli.stderr());
    }
}
