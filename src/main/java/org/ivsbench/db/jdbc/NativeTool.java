package org.ivsbench.db.jdbc;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.ivsbench.config.TargetConfig;
import org.ivsbench.db.TargetException;

/**
 * Runs a database's own dump or restore tool for clean/method native (MariaDB's and PostgreSQL's
 * {@link org.ivsbench.db.NativeSnapshot}s). The password goes into the tool's environment under the variable its
 * client reads, never onto its command line (where the process list would show it); what the tool says on stderr
 * becomes the error's message when it fails.
 */
final class NativeTool {
    private static final int MESSAGE_CHARS = 300;

    private NativeTool() {}

    /** The target's url matched against {@code url} (host, optional port, database); {@code scheme} is for the error. */
    static Matcher url(Pattern url, TargetConfig config, String scheme) throws TargetException {
        Matcher m = url.matcher(config.url());
        if (!m.matches()) {
            throw new TargetException(
                    "clean/method native needs a " + scheme + "://host:port/database url, got one it cannot read");
        }
        return m;
    }

    /**
     * Runs {@code command} to its end. {@code passwordVariable} carries the config's password (if any); {@code
     * clientTools} names the package to install when the tool is missing.
     */
    static void run(
            List<String> command,
            TargetConfig config,
            String passwordVariable,
            String clientTools,
            ProcessBuilder.Redirect stdin,
            ProcessBuilder.Redirect stdout)
            throws TargetException {
        ProcessBuilder pb = new ProcessBuilder(command);
        if (config.password() != null) {
            pb.environment().put(passwordVariable, config.password());
        }
        Path err;
        try {
            err = Files.createTempFile("ivsbench-clean", ".err");
        } catch (IOException e) {
            throw new TargetException("clean/method native: " + e.getMessage(), e, false);
        }
        pb.redirectError(err.toFile());
        pb.redirectInput(stdin);
        pb.redirectOutput(stdout);
        try {
            Process p;
            try {
                p = pb.start();
            } catch (IOException e) {
                throw new TargetException(
                        "clean/method native: cannot run " + command.get(0) + " (install the " + clientTools
                                + " client tools): " + e.getMessage(),
                        e,
                        false);
            }
            try {
                int code = p.waitFor();
                if (code != 0) {
                    String message =
                            Files.readString(err, StandardCharsets.UTF_8).strip();
                    throw new TargetException("clean/method native: " + command.get(0) + " exited " + code + ": "
                            + (message.length() > MESSAGE_CHARS ? message.substring(0, MESSAGE_CHARS) : message));
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
                throw new TargetException("clean/method native: interrupted", e, false);
            }
        } catch (IOException e) {
            throw new TargetException("clean/method native: " + e.getMessage(), e, false);
        } finally {
            try {
                Files.deleteIfExists(err);
            } catch (IOException ignored) {
                // a stray empty temp file is all that is left
            }
        }
    }

    /** Milliseconds since {@code startNanos} (a {@link System#nanoTime()}). */
    static long millisSince(long startNanos) {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }
}
