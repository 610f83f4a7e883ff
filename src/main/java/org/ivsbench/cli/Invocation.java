package org.ivsbench.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.ivsbench.bench.BenchmarkModule;
import org.ivsbench.bench.BenchmarkRegistry;
import org.ivsbench.bench.LoadReport;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.ConfigException;
import org.ivsbench.config.MonitorConfig;
import org.ivsbench.config.Shard;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;
import org.ivsbench.db.Targets;
import org.ivsbench.engine.ThinkTimes;
import org.ivsbench.experiment.ExperimentSpec;
import org.ivsbench.experiment.Trials;
import org.ivsbench.metrics.ListenAddress;
import org.ivsbench.metrics.MetricsEndpoint;
import org.ivsbench.mode.ExecutionMode;
import org.ivsbench.mode.LoadProgressBar;
import org.ivsbench.mode.RunOptions;
import org.ivsbench.mode.UsageException;
import org.ivsbench.run.LiveMetrics;

/**
 * The steps of one command line, in the order that keeps bad input from touching anything: validate options,
 * load and validate the config, choose the {@link ExecutionMode} (phases, experiment, trials or sweep) and check
 * the options against it, check the results folder, then connect; create, load, execute (in that mode).
 */
final class Invocation {
    private static final Logger LOG = LoggerFactory.getLogger(Invocation.class);

    private final RunOptions options;
    private final PrintStream out = System.out;
    private final PrintStream err = System.err;
    /** The report of this invocation's --load, for the run's load.json; null without --load. */
    private LoadReport loaded;

    Invocation(RunOptions options) {
        this.options = options;
    }

    int run() {
        BenchmarkModule module;
        BenchmarkConfig config;
        ExperimentSpec experiment;
        int trials;
        ExecutionMode mode;
        MetricsEndpoint metrics;
        try {
            module = checkOptions();
            config = CommandSetup.loadConfig(module, options.config());
            if (options.shrink()) {
                config = CommandSetup.shrink(module, config, "", out);
            }
            ThinkTimes.validate(config.phases());
            config = withMonitorInterval(config);
            Shard shard = ShardCheck.parse(options.shard());
            ShardCheck.checkOptions(options, shard);
            config = config.toBuilder().shard(shard).build();
            experiment = ExperimentSpec.parse(config, module);
            trials = experiment == null ? 1 : Trials.of(config.experiment());
            mode = ExecutionMode.of(config, trials);
            mode.check(options, shard, trials);
            ShardCheck.checkConfig(shard, config);
            // Only --execute writes results. The check also covers experiments and --resume (both write
            // below -d), and it must stay before Targets.open: --create/--load change the database.
            // Bound before the results folder is checked (which makes it): a bad address or a port in use is a usage
            // error with nothing written.
            metrics = startMetrics(config, mode);
            if (options.execute()) {
                try {
                    CommandSetup.checkResultsFolder(options.directory());
                } catch (UsageException e) {
                    if (metrics != null) {
                        metrics.close();
                    }
                    throw e;
                }
            }
        } catch (UsageException e) {
            err.println("error: " + e.getMessage());
            return Main.USAGE;
        } catch (ConfigException e) {
            err.println("error: " + CommandSetup.configError(options.config(), e));
            return Main.USAGE;
        }
        try {
            return run(module, config, experiment, trials, mode, metrics);
        } finally {
            if (metrics != null) {
                finishMetrics(metrics);
            }
        }
    }

    private int run(
            BenchmarkModule module,
            BenchmarkConfig config,
            ExperimentSpec experiment,
            int trials,
            ExecutionMode mode,
            MetricsEndpoint metrics) {
        try (Target target = Targets.open(config.target())) {
            if (options.clear()) {
                module.clear(config, target);
                out.println("Cleared " + module.name() + " tables.");
            }
            if (options.create()) {
                module.create(config, target);
                out.println("Created the " + module.name() + " schema.");
            }
            if (options.load()) {
                load(module, config, target);
            }
            if (options.execute()) {
                module.checkReady(config, target);
            }
            if (options.execute()) {
                LiveMetrics live = metrics == null ? LiveMetrics.NONE : metrics;
                return mode.execute(new ExecutionMode.Execution(
                        module, config, experiment, trials, target, options, loaded, live, out));
            }
            return Main.OK;
        } catch (TargetException e) {
            err.println("error: database: " + e.getMessage());
            LOG.debug("database error", e);
            return Main.FAILED;
        } catch (InterruptedException e) {
            return CommandSetup.interrupted(err);
        } catch (IOException | ConfigException e) {
            err.println("error: " + e.getMessage());
            return Main.FAILED;
        }
    }

    /**
     * Starts the metrics endpoint of --metrics-listen (or the config's {@code <metrics><listen>}) for an --execute;
     * null without one. A bad address or one that cannot be bound is one usage line naming where it came from.
     */
    private MetricsEndpoint startMetrics(BenchmarkConfig config, ExecutionMode mode) throws UsageException {
        String text = options.metricsListen() != null ? options.metricsListen() : config.metricsListen();
        String source = options.metricsListen() != null ? "--metrics-listen" : "metrics/listen";
        if (text == null || !options.execute()) {
            return null;
        }
        try {
            MetricsEndpoint endpoint =
                    MetricsEndpoint.start(ListenAddress.parse(text), mode.name().toLowerCase(Locale.ROOT));
            out.println("Metrics: http://" + hostForUrl(text) + ":" + endpoint.port() + "/metrics");
            return endpoint;
        } catch (IllegalArgumentException e) {
            throw new UsageException(source + ": " + e.getMessage());
        } catch (IOException e) {
            throw new UsageException(source + ": '" + text + "': cannot listen there: " + e.getMessage());
        }
    }

    /** The host part of HOST:PORT as a URL writes it. */
    private static String hostForUrl(String listen) {
        return listen.substring(0, listen.lastIndexOf(':'));
    }

    /** The work has ended: serve the final values to one more scrape (bounded by --metrics-linger), then stop. */
    private void finishMetrics(MetricsEndpoint metrics) {
        try {
            long linger = options.metricsLingerSeconds();
            if (linger > 0) {
                out.println("Metrics: serving the final values until a scrape reads them (at most " + linger + " s)");
            }
            if (metrics.awaitFinalScrape(linger)) {
                out.println("Metrics: the final values were scraped");
            } else if (linger > 0) {
                out.println("Metrics: no scrape within " + linger + " s; stopped serving");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            metrics.close();
        }
    }

    private BenchmarkModule checkOptions() throws UsageException {
        if (options.metricsLingerSeconds() < 0) {
            throw new UsageException(
                    "--metrics-linger: '" + options.metricsLingerSeconds() + "' must be 0 or more seconds");
        }
        if (options.metricsListen() != null) {
            if (!options.execute()) {
                throw new UsageException("--metrics-listen: '" + options.metricsListen()
                        + "' needs --execute (it serves the run's metrics)");
            }
            try {
                ListenAddress.parse(options.metricsListen());
            } catch (IllegalArgumentException e) {
                throw new UsageException("--metrics-listen: " + e.getMessage());
            }
        }
        if (options.dialectsExport() != null) {
            throw new UsageException("--dialects-export: not supported: ivsbench has no SQL dialect files (each"
                    + " database binding builds its statements); see docs/benchbase.md");
        }
        if (options.benchmark() != null && options.benchmark().contains(",")) {
            throw new UsageException(
                    "-b: '" + options.benchmark() + "': several benchmarks in one run are not supported:"
                            + " run one benchmark per invocation, or several configs at once with the tenants subcommand");
        }
        if (options.intervalMonitorMs() != null
                && options.intervalMonitorMs() != 0
                && options.intervalMonitorMs() < 100) {
            throw new UsageException("-im: '" + options.intervalMonitorMs()
                    + "' must be 0 (keep the configured interval)" + " or at least 100 milliseconds");
        }
        if (options.benchbaseRaw() && !options.benchbaseOutputs()) {
            throw new UsageException("--benchbase-raw: give it with --benchbase-outputs (it adds BenchBase's .raw.csv"
                    + " to those files)");
        }
        if (options.jsonHistograms() != null) {
            Path parent = options.jsonHistograms().toAbsolutePath().getParent();
            if (parent == null || !Files.isDirectory(parent) || Files.isDirectory(options.jsonHistograms())) {
                throw new UsageException("-jh: '" + options.jsonHistograms() + "' is not a file in an existing folder");
            }
        }
        if (options.trace() != null) {
            Path parent = options.trace().toAbsolutePath().getParent();
            if (!options.execute()
                    || parent == null
                    || !Files.isDirectory(parent)
                    || Files.isDirectory(options.trace())) {
                throw new UsageException("--trace: '" + options.trace() + "' "
                        + (options.execute()
                                ? "is not a file in an existing folder"
                                : "needs --execute (it records the run's operations)"));
            }
        }
        if (options.benchmark() == null) {
            throw new UsageException(
                    "missing -b NAME (known benchmarks: " + String.join(", ", BenchmarkRegistry.names()) + ")");
        }
        BenchmarkModule module = CommandSetup.module("-b", options.benchmark());
        if (options.config() == null) {
            throw new UsageException("missing -c FILE (the benchmark configuration)");
        }
        CommandSetup.checkConfigFile("-c:", options.config());
        CommandSetup.checkWindow(options.windowSeconds());
        if (!(options.create() || options.clear() || options.load() || options.execute())) {
            throw new UsageException("nothing to do: give at least one of --create, --clear, --load, --execute");
        }
        if (options.resume() && (options.create() || options.clear() || options.load() || !options.execute())) {
            // A resumed experiment continues on the primary as the last finished epoch left it.
            throw new UsageException("--resume continues an experiment on its database as it is: give it with"
                    + " --execute and without --create, --clear and --load");
        }
        return module;
    }

    private void load(BenchmarkModule module, BenchmarkConfig config, Target target)
            throws TargetException, InterruptedException {
        try (LoadProgressBar bar = new LoadProgressBar(out)) {
            LoadReport r = module.load(config, target, bar);
            bar.done();
            double seconds = Math.max(1, r.elapsedMillis()) / 1000.0;
            out.printf(
                    "Loaded %,d records (%.1f MB) in %.1f s: %,.0f records/s, %.1f MB/s%n",
                    r.records(), r.bytes() / 1e6, seconds, r.records() / seconds, r.bytes() / 1e6 / seconds);
            r.notes().forEach(out::println);
            loaded = r;
        }
    }

    /** -im overrides the config's monitor interval (BenchBase's throughput monitor interval has no other use here). */
    private BenchmarkConfig withMonitorInterval(BenchmarkConfig config) {
        Long ms = options.intervalMonitorMs();
        if (ms == null || ms == 0) {
            return config;
        }
        MonitorConfig m = config.monitor();
        return config.toBuilder().monitor(m.withIntervalMs(ms)).build();
    }
}
