package org.ivsbench.experiment;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import org.ivsbench.testsupport.FreePorts;
import org.ivsbench.testsupport.ServerUser;
import org.ivsbench.testsupport.TestServers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The presets' experiment/fresh command, as a user runs it from the project root: a RELATIVE state directory
 * (IVS_STATE_DIR=.cache/...) must land under the project root, not under the directory a server tool changes to
 * (mariadb-install-db works from /usr: "Can't change dir to '/usr/.cache/mariadb-fresh/data/'"). The test JVM's
 * working directory is the project root, as FreshServer's sh is. The private servers' scripts must be installed
 * (the tests' own servers prove it), so a failure here is the script's.
 */
class FreshCommandRelativeStateDirTest {

    @Test
    void mariadbRestartFreshTakesARelativeStateDirAgainstTheWorkingDirectory() throws Exception {
        TestServers.mariadbUrl(); // the scripts' MariaDB is there (or the test is skipped/failed with instructions)
        runFresh("mariadb", "IVS_MARIADB_BASE_PORT", "jdbc:mariadb://127.0.0.1:%d/ivsbench", "data/mysql");
    }

    @Test
    void postgresRestartFreshTakesARelativeStateDirAgainstTheWorkingDirectory() throws Exception {
        TestServers.postgresUrl();
        runFresh("postgres", "IVS_POSTGRES_BASE_PORT", "jdbc:postgresql://127.0.0.1:%d/ivsbench", "data/PG_VERSION");
    }

    /**
     * A checkout in a private folder (mode 0700, as {@code mktemp -d} makes), run as root: PostgreSQL runs as the user
     * postgres, which cannot enter it. The experiment presets' fresh command ({@code IVS_STATE_DIR=.cache/postgres-fresh
     * ... scripts/postgres.sh restart-fresh}) must still start a server, its state moved to
     * /var/tmp/ivsbench-postgres-&lt;first 12 hex digits of the SHA-256 of the checkout's path&gt;/postgres-fresh; a state
     * folder elsewhere that the user cannot reach is refused with one line naming the folder, exit 2, nothing made. The
     * checkout here is a copy of scripts/ in such a folder, run as a user runs the preset's command: from its root.
     */
    @Test
    void postgresFreshCommandRunsFromAPrivateCheckoutAndAStateDirOutOfReachIsRefused() throws Exception {
        TestServers.postgresUrl(); // the scripts' PostgreSQL is installed and configured (or skipped/failed with why)
        Assumptions.assumeTrue(
                ServerUser.root(),
                "not root: scripts/postgres.sh runs the server as this user, who reaches the folder");
        Path privateFolder = Files.createTempDirectory(
                "ivs-private-", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Path checkout = privateFolder.toRealPath().resolve("c"); // the path the scripts' `pwd` gives
        Files.createDirectory(checkout);
        Path moved = Path.of(
                "/var/tmp/ivsbench-postgres-" + sha256(checkout.toString()).substring(0, 12));
        try {
            Run copy = sh(Path.of("").toAbsolutePath(), "cp -r scripts '" + checkout + "/'");
            assertEquals(0, copy.code, copy.output);
            assertFalse(ServerUser.canEnter(ServerUser.POSTGRES, checkout), checkout + " must be out of reach");

            int port = FreePorts.belowEphemeral();
            String fresh = "IVS_STATE_DIR=.cache/postgres-fresh IVS_POSTGRES_BASE_PORT=" + port
                    + " scripts/postgres.sh restart-fresh";
            Run started = sh(checkout, fresh);
            assertEquals(0, started.code, fresh + "\n" + started.output);
            assertTrue(
                    started.output.contains(
                            "export IVS_POSTGRES_DATADIR=" + moved.resolve("postgres-fresh/data") + "\n"),
                    "the state below .cache moved to " + moved + ":\n" + started.output);
            assertTrue(started.output.contains("cannot enter " + checkout), started.output);
            assertTrue(Files.exists(moved.resolve("postgres-fresh/data/PG_VERSION")), started.output);
            assertFalse(Files.exists(checkout.resolve(".cache")), "nothing of the server in the checkout");
            try (Connection c = DriverManager.getConnection(
                            "jdbc:postgresql://127.0.0.1:" + port + "/ivsbench", "ivs", "ivs");
                    ResultSet rs = c.createStatement().executeQuery("SELECT 1")) {
                assertTrue(rs.next());
            }
            Run stopped = sh(checkout, "IVS_STATE_DIR=.cache/postgres-fresh scripts/postgres.sh stop");
            assertEquals(0, stopped.code, stopped.output);
            assertTrue(stopped.output.contains("stopped"), stopped.output);

            Path elsewhere = privateFolder.resolve("elsewhere");
            String refused = "IVS_STATE_DIR=" + elsewhere.resolve("pg") + " scripts/postgres.sh start";
            Run out = sh(checkout, refused);
            assertEquals(2, out.code, refused + "\n" + out.output);
            List<String> lines = out.output.lines().toList();
            assertEquals(1, lines.size(), out.output);
            assertTrue(lines.get(0).contains("IVS_STATE_DIR " + elsewhere.resolve("pg")), out.output);
            assertTrue(lines.get(0).contains("cannot enter " + privateFolder + " (mode 700"), out.output);
            assertFalse(Files.exists(elsewhere), "nothing made for a refused state folder");
        } finally {
            sh(checkout, "IVS_STATE_DIR=.cache/postgres-fresh scripts/postgres.sh stop");
            deleteTree(moved);
            deleteTree(privateFolder);
        }
    }

    private static String sha256(String s) throws Exception {
        return HexFormat.of()
                .formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
    }

    private static void runFresh(String script, String portVariable, String urlFormat, String marker) throws Exception {
        String relative = ".cache/test-relative-fresh-" + script + "-"
                + ProcessHandle.current().pid();
        Path absolute = Path.of("").toAbsolutePath().resolve(relative);
        Path stateDir = absolute;
        int port = FreePorts.belowEphemeral();
        // Exactly the presets' form: a relative path in the command line, run by sh in the working directory.
        String command = "IVS_STATE_DIR=" + relative + " " + portVariable + "=" + port + " scripts/" + script
                + ".sh restart-fresh";
        try {
            Run first = sh(command);
            assertEquals(0, first.code, command + "\n" + first.output);
            stateDir = stateDir(script, absolute, first.output);
            assertTrue(Files.exists(stateDir.resolve(marker)), stateDir + " holds no " + marker + "\n" + first.output);
            assertTrue(first.output.contains("ready on 127.0.0.1:" + port), first.output);
            String url = String.format(urlFormat, port);
            try (Connection c = DriverManager.getConnection(url, "ivs", "ivs");
                    ResultSet rs = c.createStatement().executeQuery("SELECT 1")) {
                assertTrue(rs.next(), url);
            }
            // A second restart-fresh stops that server and wipes the same (absolute) datadir.
            Run second = sh(command);
            assertEquals(0, second.code, command + "\n" + second.output);
            assertTrue(second.output.contains("stopped"), second.output);
        } finally {
            Run stop = sh("IVS_STATE_DIR=" + relative + " scripts/" + script + ".sh stop");
            deleteTree(stateDir);
            assertEquals(0, stop.code, stop.output);
        }
    }

    /**
     * Where the script put the state folder: {@code absolute}, except PostgreSQL's when its server user cannot enter
     * the checkout (a private folder, run as root): then the same name below scripts/postgres.sh's folder under
     * /var/tmp, as the data directory it prints says.
     */
    private static Path stateDir(String script, Path absolute, String output) throws Exception {
        if (!script.equals("postgres")
                || ServerUser.canEnter(ServerUser.POSTGRES, Path.of("").toAbsolutePath())) {
            return absolute;
        }
        Matcher m = Pattern.compile("(?m)^export IVS_POSTGRES_DATADIR=(\\S+)$").matcher(output);
        assertTrue(m.find(), "no IVS_POSTGRES_DATADIR line in\n" + output);
        Path dataDir = Path.of(m.group(1));
        Path relocated = dataDir.getParent();
        assertTrue(
                relocated.startsWith("/var/tmp") && relocated.endsWith(absolute.getFileName()),
                "a private checkout's .cache/" + absolute.getFileName() + " is the same name under /var/tmp: "
                        + dataDir);
        return relocated;
    }

    private record Run(int code, String output) {}

    private static Run sh(String command) throws IOException, InterruptedException {
        return sh(Path.of("").toAbsolutePath(), command);
    }

    private static Run sh(Path dir, String command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(List.of("sh", "-c", command))
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(180, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(command + " did not finish within 180 s:\n" + out);
        }
        return new Run(p.exitValue(), out);
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
