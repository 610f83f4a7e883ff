package org.ivsbench.security;

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

import org.ivsbench.config.ConfigRedactor;
import org.ivsbench.faults.CliProcess;
import org.ivsbench.faults.MariaDbServer;
import org.ivsbench.testsupport.TestServers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The database password never leaves the process: not into the results folder (every file, every byte; the
 * kept config.xml is the config with exactly the secret masked), not into what the CLI prints (stdout, stderr,
 * the slf4j log at debug level), not into the process list of the client tools the CLI starts (clean/method
 * native hands the password to mariadb-dump and mariadb: their real /proc/PID/cmdline is recorded by a
 * wrapper and must not hold it, while their environment must, so the check is not vacuous). Checked with a
 * user whose password is unique to the test, so a match cannot be a coincidence, for each password source
 * and for a failed login with a wrong password.
 */
class SecretsTest {
    private static final String USER = "ivs_secret_test";
    private static final String PASSWORD =
            "Pw-" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
    private static final String CONFIG = "secret.xml";
    private static final List<String> DEBUG_LOG = List.of("-Dorg.slf4j.simpleLogger.defaultLogLevel=debug");

    @TempDir
    Path tmp;

    @BeforeAll
    static void createUser() throws Exception {
        // The test user 'ivs' cannot GRANT; root can, through the server's own defaults file.
        MariaDbServer.fromEnvironment()
                .rootSql("CREATE OR REPLACE USER '" + USER + "'@'127.0.0.1' IDENTIFIED BY '" + PASSWORD
                        + "'; GRANT ALL PRIVILEGES ON *.* TO '" + USER + "'@'127.0.0.1';");
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
        Path cfg = tmp.resolve(CONFIG);
        Files.writeString(cfg, xml);
        CliProcess cli = CliProcess.start(
                tmp,
                env,
                DEBUG_LOG,
                "-b",
                "ycsbivs",
                "-c",
                cfg.toString(),
                "--create",
                "--load",
                "--execute",
                "-d",
                tmp.resolve("results").toString());
        try {
            cli.waitFor(120);
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

    /**
     * The run succeeded, no file of its results holds the password, and the kept config.xml is the config as
     * written with exactly the {@code masked} texts (the password, or what names its source: the redactor masks
     * every password-named element) replaced by the mask: a config that kept the password, or a mask over
     * anything else, fails.
     */
    private void assertRunSucceeded(CliProcess cli, String masked) throws IOException {
        assertEquals(0, cli.process().exitValue(), "exit code; stdout: " + cli.stdout() + "\nstderr: " + cli.stderr());
        assertNotInResults(cli.resultsDir(), PASSWORD);
        String written = Files.readString(tmp.resolve(CONFIG), StandardCharsets.UTF_8);
        assertTrue(written.contains(masked), "the config holds " + masked);
        assertEquals(
                written.replace(masked, ConfigRedactor.MASK),
                Files.readString(cli.resultsDir().resolve("config.xml"), StandardCharsets.UTF_8),
                "config.xml: the config with the password masked");
    }

    @Test
    void inlinePasswordStaysOutOfResultsAndOutput() throws Exception {
        assertRunSucceeded(
                run(config("<password>" + PASSWORD + "</password>", TestServers.mariadbUrl()), Map.of(), PASSWORD),
                PASSWORD);
    }

    @Test
    void passwordInTheUrlIsRedactedToo() throws Exception {
        String url = TestServers.mariadbUrl() + "?password=" + PASSWORD;
        assertRunSucceeded(run(config("", url), Map.of(), PASSWORD), PASSWORD);
    }

    @Test
    void passwordEnvWorksEndToEnd() throws Exception {
        assertRunSucceeded(
                run(
                        config("<passwordEnv>IVS_TEST_SECRET</passwordEnv>", TestServers.mariadbUrl()),
                        Map.of("IVS_TEST_SECRET", PASSWORD),
                        PASSWORD),
                "IVS_TEST_SECRET");
    }

    @Test
    void passwordFileWorksEndToEnd() throws Exception {
        Files.writeString(tmp.resolve("db.secret"), PASSWORD + "\n");
        // Relative to the config's folder.
        assertRunSucceeded(
                run(config("<passwordFile>db.secret</passwordFile>", TestServers.mariadbUrl()), Map.of(), PASSWORD),
                "db.secret");
    }

    @Test
    void wrongPasswordFailsWithoutShowingIt() throws Exception {
        String wrong = "Wrong-" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
        CliProcess cli = run(config("<password>" + wrong + "</password>", TestServers.mariadbUrl()), Map.of(), wrong);
        assertEquals(1, cli.process().exitValue(), "exit code; stderr: " + cli.stderr());
        assertTrue(cli.stderr().contains("Access denied"), "says why: " + cli.stderr());
        assertFalse(
                Files.exists(tmp.resolve("results"))
                        && Files.list(tmp.resolve("results")).findAny().isPresent(),
                "no results folder for a run that never connected");
    }

    @Test
    void wrongPasswordInTheUrlFailsWithoutShowingIt() throws Exception {
        String wrong = "Wrong-" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
        CliProcess cli = run(config("", TestServers.mariadbUrl() + "?password=" + wrong), Map.of(), wrong);
        assertEquals(1, cli.process().exitValue(), "exit code; stderr: " + cli.stderr());
        assertTrue(cli.stderr().contains("Access denied"), "says why: " + cli.stderr());
    }

    /**
     * clean/method native runs mariadb-dump and mariadb with the primary's password. Each is reached through a
     * wrapper first on PATH that records its own /proc/PID/cmdline (what ps shows) and environment, then execs
     * the real tool. The password must be in the environment of every call and on no command line.
     */
    @Test
    void nativeCleanToolsGetThePasswordOutsideTheirCommandLine() throws Exception {
        Path bin = Files.createDirectory(tmp.resolve("bin"));
        Path seen = Files.createDirectory(tmp.resolve("seen"));
        for (String tool : List.of("mariadb-dump", "mariadb")) {
            Path wrapper = bin.resolve(tool);
            Files.writeString(
                    wrapper,
                    "#!/bin/sh\n"
                            + "tr '\\000' '\\n' < /proc/$$/cmdline > \"" + seen + "/" + tool + ".$$.cmdline\"\n"
                            + "tr '\\000' '\\n' < /proc/$$/environ > \"" + seen + "/" + tool + ".$$.environ\"\n"
                            + "PATH=\"${PATH#*:}\" exec " + tool + " \"$@\"\n");
            assertTrue(wrapper.toFile().setExecutable(true));
        }
        String xml = config("<password>" + PASSWORD + "</password>", TestServers.mariadbUrl())
                .replace(
                        "</parameters>",
                        "<experiment><epochs>1</epochs><modes>main,clean</modes><extend><count>20</count></extend>"
                                + "<run><count>20</count></run><clean><method>native</method></clean></experiment></parameters>");
        CliProcess cli = run(xml, Map.of("PATH", bin + ":" + System.getenv("PATH")), PASSWORD);
        assertEquals(0, cli.process().exitValue(), "exit code; stdout: " + cli.stdout() + "\nstderr: " + cli.stderr());

        List<Path> cmdlines;
        try (Stream<Path> files = Files.list(seen)) {
            cmdlines = files.filter(f -> f.toString().endsWith(".cmdline"))
                    .sorted()
                    .toList();
        }
        assertTrue(
                cmdlines.stream().anyMatch(f -> f.getFileName().toString().startsWith("mariadb-dump."))
                        && cmdlines.stream()
                                .anyMatch(f -> f.getFileName().toString().startsWith("mariadb.")),
                "both tools ran through the wrappers: " + cmdlines);
        for (Path cmdline : cmdlines) {
            String args = Files.readString(cmdline, StandardCharsets.UTF_8);
            assertTrue(args.contains("--user=" + USER), cmdline + " is the tool's real command line: " + args);
            assertFalse(args.contains(PASSWORD), cmdline + " shows the password in the process list: " + args);
            Path environ = Path.of(cmdline.toString().replace(".cmdline", ".environ"));
            assertTrue(
                    Files.readAllLines(environ, StandardCharsets.UTF_8).contains("MYSQL_PWD=" + PASSWORD),
                    "the tool got the password some other way than its environment: " + environ);
        }
        assertNotInResults(tmp.resolve("results"), PASSWORD); // the experiment folder and its epochs
    }
}
