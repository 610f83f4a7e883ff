package org.ivsbench.experiment;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.ivsbench.config.ConfigRedactor;
import org.ivsbench.config.TargetConfig;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;
import org.ivsbench.db.Targets;

/**
 * The server that holds a mode's fresh database (clean-run and the baselines). By default the primary's own
 * server. With experiment/fresh a new server instance: before each such mode the configured command runs
 * (e.g. the scripts' private MariaDB restarted on a new, empty datadir) and the instance is reached at the
 * configured url with the primary's credentials and options. The command's output goes to
 * {@value #LOG} in the experiment folder. The instance must not already hold the benchmark's table, which
 * catches a url that points back at the primary. A copy instance (experiment/maintained, mode main-maintained)
 * is the opposite: its command makes a physical copy of the primary, so it must hold the table with the
 * primary's record count.
 */
final class FreshServer {
    static final String LOG = "fresh-instance.log";

    private final Target primary;
    private final TargetConfig primaryConfig;
    private final ExperimentSpec.FreshInstance instance;
    private final Path log;
    private final PrintStream out;
    private final ExperimentState state;
    /** The config element (fresh, maintained) and whether the instance is a copy of the primary. */
    private final String element;

    private final boolean copy;
    private Map<String, Object> primarySettings;
    private List<String> warned = List.of();

    FreshServer(
            Target primary,
            TargetConfig primaryConfig,
            ExperimentSpec.FreshInstance instance,
            Path dir,
            PrintStream out,
            ExperimentState state) {
        this(primary, primaryConfig, instance, dir, out, state, false);
    }

    /** With {@code copy}: the instance the command makes is a physical copy of the primary (experiment/maintained). */
    FreshServer(
            Target primary,
            TargetConfig primaryConfig,
            ExperimentSpec.FreshInstance instance,
            Path dir,
            PrintStream out,
            ExperimentState state,
            boolean copy) {
        this.copy = copy;
        this.element = copy ? "maintained" : "fresh";
        this.primary = primary;
        this.primaryConfig = primaryConfig;
        this.instance = instance;
        this.log = dir.resolve(LOG);
        this.out = out;
        this.state = state;
    }

    /** The connection settings of the server acquire() returns (what native dump/restore talks to). */
    TargetConfig config() {
        return instance == null ? primaryConfig : instanceConfig();
    }

    /** The server to build the next fresh database on; hand it back with {@link #release}. */
    Target acquire(Mode mode, int epoch, String table) throws TargetException, InterruptedException {
        if (instance == null) {
            return primary;
        }
        long t0 = System.nanoTime();
        runCommand(mode, epoch);
        Target server = Targets.open(instanceConfig());
        try {
            if (copy) {
                long want = primary.countRecords(table);
                long got = holdsTable(server, table) ? server.countRecords(table) : 0;
                if (got != want) {
                    throw new TargetException("experiment/maintained/url '" + redactedUrl() + "': the instance holds "
                            + got + " records of table " + table + " after maintained/command, the primary " + want
                            + "; does the command copy the primary (e.g. scripts/mariadb.sh restart-copy)?");
                }
            } else if (holdsTable(server, table)) {
                throw new TargetException("experiment/fresh/url '" + redactedUrl() + "': the instance already holds"
                        + " table " + table + " after fresh/command; is the url the primary's server, or does the"
                        + " command not start from an empty datadir?");
            }
            compareSettings(server);
        } catch (TargetException | RuntimeException e) {
            server.close();
            throw e;
        }
        out.printf(
                Locale.ROOT,
                "epoch %d mode %s: %s ready in %.1f s%n",
                epoch,
                mode.label(),
                copy ? "copy of the primary" : "fresh instance",
                (System.nanoTime() - t0) / 1e9);
        return server;
    }

    /**
     * Records the instance's server settings beside the primary's in experiment.json; a warning line names the
     * ones that differ, each time that list changes (the command could start instances differently).
     */
    private void compareSettings(Target server) throws TargetException {
        if (primarySettings == null) {
            primarySettings = ServerSettings.of(primary);
        }
        Map<String, Object> settings = ServerSettings.of(server);
        List<String> differing = ServerSettings.differing(primarySettings, settings);
        try {
            state.serverSettings(element + "Instance", settings, differing);
        } catch (IOException e) {
            throw new TargetException("experiment.json: " + e.getMessage(), e, false);
        }
        if (!differing.isEmpty() && !differing.equals(warned)) {
            out.println("warning: the " + element
                    + " instance's server settings differ from the primary's (primary vs instance): "
                    + String.join(", ", differing) + "; recorded in " + ExperimentState.FILE
                    + " (serverSettings)");
        }
        warned = differing;
    }

    /** Closes an instance's connections; the primary stays open. */
    void release(Target server) {
        if (server != primary) {
            server.close();
        }
    }

    private TargetConfig instanceConfig() {
        TargetConfig p = primaryConfig;
        return p.withUrl(instance.url());
    }

    private String redactedUrl() {
        return ConfigRedactor.redact(instance.url());
    }

    /** True when the table exists with records (MongoDB counts a missing collection as empty). */
    private static boolean holdsTable(Target server, String table) {
        try {
            return server.countRecords(table) > 0;
        } catch (TargetException noSuchTable) {
            return false;
        }
    }

    private void runCommand(Mode mode, int epoch) throws TargetException, InterruptedException {
        String header = "== " + Instant.now() + " epoch " + epoch + " mode " + mode.label() + (copy ? " (copy)" : "")
                + ": " + ConfigRedactor.redact(instance.command()) + "\n";
        try {
            Files.writeString(
                    log, header, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new TargetException(
                    "experiment/" + element + ": cannot write " + log + ": " + e.getMessage(), e, false);
        }
        ProcessBuilder pb = new ProcessBuilder(List.of("sh", "-c", instance.command()))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            throw new TargetException("experiment/" + element + "/command: cannot run sh: " + e.getMessage(), e, false);
        }
        try {
            if (!p.waitFor(instance.timeoutSeconds(), TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                throw new TargetException("experiment/" + element + "/command " + quotedCommand()
                        + " did not finish within " + instance.timeoutSeconds() + " s (experiment/" + element
                        + "/timeout); its output is in " + log);
            }
        } catch (InterruptedException e) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw e;
        }
        if (p.exitValue() != 0) {
            throw new TargetException("experiment/" + element + "/command " + quotedCommand() + " exited "
                    + p.exitValue()
                    + " (run by sh in " + Path.of("").toAbsolutePath() + "): " + lastLine() + " (whole output in "
                    + log.toAbsolutePath() + ")");
        }
    }

    /** The command as configured, secrets redacted, in quotes: the message names what ran. */
    private String quotedCommand() {
        return "'" + ConfigRedactor.redact(instance.command()) + "'";
    }

    private String lastLine() {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            for (int i = lines.size() - 1; i >= 0; i--) {
                if (!lines.get(i).isBlank()) {
                    String l = lines.get(i).strip();
                    return l.length() > 300 ? l.substring(0, 300) : l;
                }
            }
        } catch (IOException | UncheckedIOException e) {
            // fall through
        }
        return "(no output)";
    }
}
