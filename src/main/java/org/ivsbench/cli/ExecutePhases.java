package org.ivsbench.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.ivsbench.bench.BenchmarkModule;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.experiment.MeasuredRun;
import org.ivsbench.stats.EnvironmentWriter;
import org.ivsbench.stats.ResultsDirectory;
import org.ivsbench.stats.RunInfo;
import org.ivsbench.db.ServerInfo;
import org.ivsbench.db.Target;

/**
 * --execute: makes the results folder, runs the phases as one {@link MeasuredRun} with live progress, and makes
 * sure the summary is written however the run ends: normally, by a database failure, or by Ctrl-C / SIGTERM.
 */
final class ExecutePhases {
    private final BenchmarkModule module;
    private final BenchmarkConfig config;
    private final Target target;
    private final Main options;
    private final PrintStream out;

    ExecutePhases(BenchmarkModule module, BenchmarkConfig config, Target target, Main options, PrintStream out) {
        this.module = module;
        this.config = config;
        this.target = target;
        this.options = options;
        this.out = out;
    }

    int run(List<String> commandLine, String digest, String redactedXml) throws IOException {
        Path dir = ResultsDirectory.create(options.directory, module.name());
        Files.writeString(dir.resolve("config.xml"), redactedXml);
        Map<String, Object> env = ServerInfo.environmentOf(target);
        EnvironmentWriter.write(dir.resolve("environment.json"), env, EnvironmentWriter.toolVersion(), commandLine);
        RunInfo info = new RunInfo(EnvironmentWriter.toolVersion(), module.name(), RunInfo.databaseBlock(config, env), digest,
                config.randomSeed(), config.terminals(), options.windowSeconds, config.phases());
        out.println("Results: " + dir);

        MeasuredRun run = new MeasuredRun(module, config, target, dir, info);
        ConsoleProgress progress = new ConsoleProgress(run.manager(), config.phases(), out);
        CountDownLatch written = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            run.requestStop();
            try {
                written.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "ivsbench-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        Exception failure;
        try {
            progress.start();
            failure = run.execute();
        } finally {
            progress.stop();
            run.close();
            // Printed before releasing the shutdown hook: on a signal the JVM exits as soon as it returns.
            SummaryTable.print(out, run.summaries());
            out.println("Results: " + dir);
            written.countDown();
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // The JVM is already exiting (signal): the hook is running and waits for `written`.
        }
        if (failure != null) {
            System.err.println("error: the run stopped: " + failure.getMessage());
            return Main.FAILED;
        }
        return run.stopRequested() ? Main.INTERRUPTED : Main.OK;
    }
}
