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
 * A checkout in a private folder (mode 0700, as {@code mktemp -d} makes), run as root: PostgreSQL runs as the user
 * postgres, which cannot enter it. The experiment presets' fresh command ({@code IVS_STATE_DIR=.cache/postgres-fresh
 * ... scripts/postgres.sh restart-fresh}) must still start a server, its state moved to
 * /var/tmp/ivsbench-postgres-&lt;first 12 hex digits of the SHA-256 of the checkout's path&gt;/postgres-fresh; a state
 * folder elsewhere that the user cannot reach is refused with one line naming the folder, exit 2, nothing made. The
 * checkout here is a copy of scripts/ in such a folder, run as a user runs the preset's command: from its root.
 */
class PostgresPrivateCheckoutTest {

    @Test
    void theFreshCommandRunsFromAPrivateCheckoutAndAStateDirOutOfReachIsRefused() throws Exception {
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
            Run copy = run(Path.of("").toAbsolutePath(), "cp -r scripts '" + checkout + "/'");
            assertEquals(0, copy.code, copy.output);
            assertFalse(ServerUser.canEnter(ServerUser.POSTGRES, checkout), checkout + " must be out of reach");

            int port = FreePorts.belowEphemeral();
            String fresh = "IVS_STATE_DIR=.cache/postgres-fresh IVS_POSTGRES_BASE_PORT=" + port
                    + " scripts/postgres.sh restart-fresh";
            Run started = run(checkout, fresh);
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
            Run stopped = run(checkout, "IVS_STATE_DIR=.cache/postgres-fresh scripts/postgres.sh stop");
            assertEquals(0, stopped.code, stopped.output);
            assertTrue(stopped.output.contains("stopped"), stopped.output);

            Path elsewhere = privateFolder.resolve("elsewhere");
            String refused = "IVS_STATE_DIR=" + elsewhere.resolve("pg") + " scripts/postgres.sh start";
            Run out = run(checkout, refused);
            assertEquals(2, out.code, refused + "\n" + out.output);
            List<String> lines = out.output.lines().toList();
            assertEquals(1, lines.size(), out.output);
            assertTrue(lines.get(0).contains("IVS_STATE_DIR " + elsewhere.resolve("pg")), out.output);
            assertTrue(lines.get(0).contains("cannot enter " + privateFolder + " (mode 700"), out.output);
            assertFalse(Files.exists(elsewhere), "nothing made for a refused state folder");
        } finally {
            run(checkout, "IVS_STATE_DIR=.cache/postgres-fresh scripts/postgres.sh stop");
            deleteTree(moved);
            deleteTree(privateFolder);
        }
    }

    private static String sha256(String s) throws Exception {
        return HexFormat.of()
                .formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
    }

    private record Run(int code, String output) {}

    private static Run run(Path dir, String command) throws IOException, InterruptedException {
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
