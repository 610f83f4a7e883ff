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
        Run id = run(List.of("id", "-u"));
        if (id.code != 0) {
            throw new IOException("id -u failed: " + id.output);
        }
        return id.output.equals("0");
    }

    /**
     * True when {@code user} can enter {@code dir} and every folder above it; always true when this JVM is not root
     * (the server then runs as this JVM's user).
     */
    public static boolean canEnter(String user, Path dir) throws IOException, InterruptedException {
        return !root()
                || run(List.of(
                                        "runuser",
                                        "-u",
                                        user,
                                        "--",
                                        "test",
                                        "-x",
                                        dir.toAbsolutePath().toString()))
                                .code
                        == 0;
    }

    private record Run(int code, String output) {}

    private static Run run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes()).trim();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException(String.join(" ", command) + " did not finish within 30 s");
        }
        return new Run(p.exitValue(), out);
    }
}
