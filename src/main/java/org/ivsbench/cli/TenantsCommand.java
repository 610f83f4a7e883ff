package org.ivsbench.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import org.ivsbench.bench.BenchmarkModule;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.ConfigException;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;
import org.ivsbench.db.Targets;
import org.ivsbench.mode.ExecutionMode;
import org.ivsbench.mode.LoadProgressBar;
import org.ivsbench.mode.TenantSpec;
import org.ivsbench.mode.TenantsRun;
import org.ivsbench.mode.UsageException;

/**
 * {@code java -jar benchbase.jar tenants NAME:BENCH:FILE NAME:BENCH:FILE ... --execute}: several configs at once
 * against one or several targets (OLTP-Bench's multitenancy). Every config is checked before any database is
 * touched; --create and --load run tenant by tenant, then all tenants' phases start together ({@link TenantsRun}).
 */
@Command(
        name = "tenants",
        mixinStandardHelpOptions = true,
        usageHelpAutoWidth = true,
        sortOptions = false,
        description = "Run several configs (tenants) concurrently, each with its own phases, rate and results"
                + " subfolder, on one timeline (tenants.csv) so that their interference shows in one report.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:every tenant completed",
            "1:a tenant failed (the others were stopped; what was measured is written)",
            "2:bad option or configuration",
            "130:interrupted by SIGINT (what was measured is written)",
            "143:interrupted by SIGTERM"
        })
final class TenantsCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(
            arity = "1..*",
            paramLabel = "NAME:BENCH:FILE",
            description = "A tenant: its name (its results subfolder), benchmark (-b) and config file (-c).")
    List<String> tenantArgs = new ArrayList<>();

    @Option(
            names = "--create",
            arity = "0..1",
            fallbackValue = "true",
            paramLabel = "BOOL",
            description = "Create each tenant's schema (drops its tables).")
    boolean create;

    @Option(
            names = "--load",
            arity = "0..1",
            fallbackValue = "true",
            paramLabel = "BOOL",
            description = "Load each tenant's initial data, one tenant after the other.")
    boolean load;

    @Option(
            names = "--execute",
            arity = "0..1",
            fallbackValue = "true",
            paramLabel = "BOOL",
            description = "Run all tenants' phases concurrently.")
    boolean execute;

    @Option(
            names = "--shrink",
            arity = "0..1",
            fallbackValue = "true",
            paramLabel = "BOOL",
            description = "Run every tenant's config at a smoke-test size (as the main command's --shrink); one line"
                    + " per tenant says what it shrank; results record it.")
    boolean shrink;

    @Option(
            names = {"-d", "--directory"},
            paramLabel = "DIR",
            defaultValue = "results",
            description = "Parent of the results folder tenants_<time>/ (default: ${DEFAULT-VALUE}).")
    Path directory;

    @Option(
            names = {"-s", "--sample"},
            paramLabel = "SECONDS",
            defaultValue = "1",
            description = "Statistics window in seconds, the same for every tenant (default: ${DEFAULT-VALUE}).")
    int windowSeconds;

    private final PrintStream out = System.out;
    private final PrintStream err = System.err;

    @Override
    public Integer call() {
        List<TenantsRun.Tenant> loaded = new ArrayList<>();
        List<TenantSpec> specs;
        List<BenchmarkConfig> configs = new ArrayList<>();
        List<BenchmarkModule> modules = new ArrayList<>();
        TenantSpec current = null;
        try {
            specs = TenantSpec.parseAll(tenantArgs);
            if (!(create || load || execute)) {
                throw new UsageException("nothing to do: give at least one of --create, --load, --execute");
            }
            CommandSetup.checkWindow(windowSeconds);
            for (TenantSpec s : specs) {
                current = s;
                BenchmarkModule module = CommandSetup.module("tenant " + s.name(), s.benchmark());
                CommandSetup.checkConfigFile("tenant " + s.name() + ": config", s.config());
                BenchmarkConfig config = CommandSetup.loadConfig(module, s.config());
                if (shrink) {
                    config = CommandSetup.shrink(module, config, "tenant " + s.name() + ": ", out);
                }
                ExecutionMode mode = ExecutionMode.of(config, 1);
                if (mode != ExecutionMode.PHASES) {
                    throw new UsageException("tenant " + s.name() + ": " + s.config() + ": <" + mode.element()
                            + "> is not supported in a tenant (give it <works> phases)");
                }
                modules.add(module);
                configs.add(config);
            }
            current = null;
            if (execute) {
                CommandSetup.checkResultsFolder(directory);
            }
        } catch (UsageException e) {
            err.println("error: " + e.getMessage());
            return Main.USAGE;
        } catch (ConfigException e) {
            err.println("error: tenant " + current.name() + ": " + CommandSetup.configError(current.config(), e));
            return Main.USAGE;
        }
        List<Target> targets = new ArrayList<>();
        try {
            for (int i = 0; i < specs.size(); i++) {
                current = specs.get(i);
                Target target = Targets.open(configs.get(i).target());
                targets.add(target);
                prepare(current, modules.get(i), configs.get(i), target);
                loaded.add(new TenantsRun.Tenant(current, modules.get(i), configs.get(i), target));
            }
            current = null;
            if (!execute) {
                return Main.OK;
            }
            return new TenantsRun(loaded, out)
                    .execute(
                            directory,
                            windowSeconds,
                            List.copyOf(spec.commandLine().getParseResult().originalArgs()));
        } catch (TargetException e) {
            err.println("error: " + (current == null ? "" : "tenant " + current.name() + ": ") + "database: "
                    + e.getMessage());
            return Main.FAILED;
        } catch (InterruptedException e) {
            return CommandSetup.interrupted(err);
        } catch (IOException | ConfigException e) {
            err.println("error: " + e.getMessage());
            return Main.FAILED;
        } finally {
            for (Target t : targets) {
                try {
                    t.close();
                } catch (Exception e) {
                    err.println("error: closing a database connection: " + e.getMessage());
                }
            }
        }
    }

    private void prepare(TenantSpec s, BenchmarkModule module, BenchmarkConfig config, Target target)
            throws TargetException, InterruptedException {
        if (create) {
            module.create(config, target);
            out.println("Tenant " + s.name() + ": created the " + module.name() + " schema.");
        }
        if (load) {
            try (LoadProgressBar bar = new LoadProgressBar(out)) {
                long records = module.load(config, target, bar).records();
                bar.done();
                out.printf("Tenant %s: loaded %,d records%n", s.name(), records);
            }
        }
        if (execute) {
            module.checkReady(config, target);
        }
    }
}
