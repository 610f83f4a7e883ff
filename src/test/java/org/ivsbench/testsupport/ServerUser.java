package org.ivsbench.testsupport;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Whether the system user a server script runs its server as can enter a folder. scripts/postgres.sh runs PostgreSQL
 * as the user {@code postgres} when started by root (and as the caller otherwise), and that user must enter every
 * folder above its state directory: a checkout in a private folder (mode 0700, as {@code mktemp -d} makes) is out of
 * its reach.
 */
public final class ServerUser {
    /** The user scripts/postgres.sh runs the server as when started by root (its IVS_POSTGRES_USER_OS default). */
    public static final String POSTGRES = "postgres";

    private ServerUser() {}

    /** True when this JVM runs as root, so the scripts start their servers as a system user of their own. */
    public static boolean root() throws IOException, InterruptedException {
        return run(List.of("id", "-u")).equals("0");
    }

    /**
     * True when {@code user} can enter {@code dir} and every folder above it; always true when this JVM is not root
     * (the server then runs as this JVM's user).
     */
    public static boolean canEnter(String user, Path dir) throws IOException, InterruptedException {
        if (!root()) {
            return true;
        }
        Process p = new ProcessBuilder(
                        "runuser",
                        "-u",
                        user,
                        "--",
                        "test",
                        "-x",
                        dir.toAbsolutePath().toString())
                .redirectErrorStream(true)
                .start();
        p.getInputStream().readAllBytes();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("runuser -u " + user + " test -x " + dir + " did not finish within 30 s");
        }
        return p.exitValue() == 0;
    }

    private static String run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes()).trim();
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException(String.join(" ", command) + " failed: " + out);
        }
        return out;
    }
}
