package org.ivsbench.cli;

import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import org.ivsbench.monitor.MonitorOverhead;
import org.ivsbench.monitor.ProcessLocator;

/** {@code java -jar benchbase.jar monitor-overhead [--samples N] ...}: what one resource monitor sample costs. */
@Command(
        name = "monitor-overhead",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        usageHelpAutoWidth = true,
        description = {
            "Measure the resource monitor's CPU cost per sample: fast mode (back to back, after a warm-up)"
                    + " then paced mode (at the monitor's interval). With --db-url both again with the database counters"
                    + " read as a run reads them.",
            "The database password comes from the environment variable named by --db-password-env, never from"
                    + " the command line."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:measured", "1:the measurement failed (database error, /proc unreadable)", "2:bad option"})
final class MonitorOverheadCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(
            names = "--samples",
            paramLabel = "N",
            defaultValue = "60",
            description = "Paced samples, one per interval; 0 skips paced mode (default: ${DEFAULT-VALUE}).")
    int samples;

    @Option(
            names = "--interval",
            paramLabel = "MS",
            defaultValue = "1000",
            description = "Paced mode's interval in milliseconds (default: ${DEFAULT-VALUE}).")
    long intervalMs;

    @Option(
            names = "--fast",
            paramLabel = "N",
            defaultValue = "2000",
            description = "Back-to-back samples; 0 skips fast mode (default: ${DEFAULT-VALUE}).")
    int fast;

    @Option(
            names = "--pid",
            paramLabel = "PID",
            description = "Process whose proc.* columns are sampled" + " (default: this JVM).")
    Long pid;

    @Option(names = "--process-name", paramLabel = "NAME", description = "As --pid, found by its name (comm).")
    String processName;

    @Option(
            names = "--db-url",
            paramLabel = "URL",
            description = "Also read this database's counters" + " (jdbc:mariadb:, jdbc:mysql: or mongodb: URL).")
    String dbUrl;

    @Option(names = "--db-user", paramLabel = "USER", description = "User for --db-url.")
    String dbUser;

    @Option(
            names = "--db-password-env",
            paramLabel = "VAR",
            description = "Environment variable holding the password for --db-url.")
    String dbPasswordEnv;

    @Option(
            names = "--server-process",
            paramLabel = "NAME",
            description = "The database server's process name: fast mode also reports its CPU per counter read.")
    String serverProcess;

    @Option(names = "--server-pid", paramLabel = "PID", description = "As --server-process, by pid.")
    Long serverPid;

    @Override
    public Integer call() throws Exception {
        MonitorOverhead.Settings settings = settings();
        try {
            MonitorOverhead.run(settings, System.out);
        } catch (IllegalArgumentException e) {
            // MonitorOverhead rejects a --db-url of a kind it cannot read counters from; anything else is a failure.
            if (e.getMessage() == null || !e.getMessage().startsWith("--db-url")) {
                throw e;
            }
            throw usage(e.getMessage() + ", got '" + dbUrl + "'");
        }
        return Main.OK;
    }

    private MonitorOverhead.Settings settings() {
        atLeast("--samples", samples, 0);
        atLeast("--interval", intervalMs, 1);
        atLeast("--fast", fast, 0);
        if (pid != null && processName != null) {
            throw usage("--pid " + pid + " and --process-name '" + processName + "': give one, not both");
        }
        if (serverPid != null && serverProcess != null) {
            throw usage(
                    "--server-pid " + serverPid + " and --server-process '" + serverProcess + "': give one, not both");
        }
        if (dbUrl == null && (dbUser != null || dbPasswordEnv != null || serverPid != null || serverProcess != null)) {
            throw usage("--db-user, --db-password-env, --server-pid and --server-process need --db-url");
        }
        if (dbPasswordEnv != null && System.getenv(dbPasswordEnv) == null) {
            throw usage("--db-password-env: environment variable '" + dbPasswordEnv + "' is not set");
        }
        ProcessLocator process = pid != null
                ? ProcessLocator.pid(positive("--pid", pid))
                : processName != null
                        ? ProcessLocator.processName(processName)
                        : ProcessLocator.pid(ProcessHandle.current().pid());
        ProcessLocator server = serverPid != null
                ? ProcessLocator.pid(positive("--server-pid", serverPid))
                : serverProcess != null ? ProcessLocator.processName(serverProcess) : null;
        return new MonitorOverhead.Settings(samples, intervalMs, fast, process, server, dbUrl, dbUser, dbPasswordEnv);
    }

    private void atLeast(String option, long value, long min) {
        if (value < min) {
            throw usage(option + ": '" + value + "' must be " + min + " or more");
        }
    }

    private long positive(String option, long value) {
        atLeast(option, value, 1);
        return value;
    }

    private ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
