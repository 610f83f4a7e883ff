package org.ivsbench.mode;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.zip.Deflater;

import org.ivsbench.bench.BenchmarkModule;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.PhaseConfig;
import org.ivsbench.config.RateSpec;
import org.ivsbench.db.TargetKind;
import org.ivsbench.db.TargetKinds;
import org.ivsbench.engine.OperationGenerator;
import org.ivsbench.run.RunFolder;
import org.ivsbench.run.RunLifecycle;
import org.ivsbench.stats.EnvironmentWriter;
import org.ivsbench.trace.GeneratingModule;
import org.ivsbench.trace.TraceHeader;
import org.ivsbench.trace.TraceWriter;

/**
 * The generate mode: the operation stream a config's terminals would issue, written to a trace file without a
 * database (docs/trace.md, "Generate"). The benchmark's own terminals draw every key and value
 * ({@link GeneratingModule}); the engine's generator gives them their streams and transaction types
 * ({@link OperationGenerator}). The file appears only when it is complete: it is written beside its name and
 * moved there at the end (a device such as /dev/null is written directly).
 */
public final class GenerateRun {
    /** The subcommand's options as plain values; {@code count} 0: the phases' own counts. */
    public record Options(Path output, long count) {}

    private final PrintStream out;
    private final PrintStream err;

    public GenerateRun(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    /**
     * The phases as generated: with {@code count} > 0 every phase that issues operations ends after that many
     * (time phases included); then every phase must be generable. Throws naming the phase otherwise.
     */
    public static List<PhaseConfig> phases(BenchmarkConfig config, long count) throws UsageException {
        List<PhaseConfig> phases = new ArrayList<>();
        for (PhaseConfig p : config.phases()) {
            boolean issues = p.rate().kind() != RateSpec.Kind.DISABLED;
            phases.add(count > 0 && issues ? p.toBuilder().count(count).build() : p);
        }
        String bad = OperationGenerator.check(phases);
        if (bad != null) {
            throw new UsageException("-c " + config.source() + ": " + bad);
        }
        return phases;
    }

    /** Where the file is written first: beside its name, or the name itself when it is no regular file. */
    static Path partial(Path output) {
        if (Files.exists(output) && !Files.isRegularFile(output)) {
            return output;
        }
        Path name = output.getFileName();
        return output.resolveSibling("." + name + ".partial");
    }

    /** Checks {@code -o} before anything is written: its folder must exist, and it must not be a folder. */
    public static void checkOutput(Path output) throws UsageException {
        if (Files.isDirectory(output)) {
            throw new UsageException("-o: '" + output + "' is a directory");
        }
        Path parent = output.toAbsolutePath().getParent();
        if (parent == null || !Files.isDirectory(parent)) {
            throw new UsageException("-o: '" + output + "': its folder " + parent + " does not exist");
        }
        if (!Files.isWritable(parent) && !(Files.exists(output) && !Files.isRegularFile(output))) {
            throw new UsageException("-o: '" + output + "': its folder " + parent + " is not writable");
        }
    }

    /** Generates into {@code options.output()}; returns the exit code 0, 1 (a write failed) or 130. */
    public int run(BenchmarkModule module, BenchmarkConfig config, String redactedXml, Options options) {
        List<PhaseConfig> phases = config.phases();
        TargetKind kind = TargetKinds.of(config.target().type());
        OperationGenerator generator = new OperationGenerator(phases, config.terminals(), config.randomSeed());
        for (PhaseConfig p : phases) {
            if (p.warmupSeconds() > 0 && p.rate().kind() != RateSpec.Kind.DISABLED) {
                out.println("note: phase '" + p.name() + "': its warmup (" + p.warmupSeconds() + " s) is time-based"
                        + " and is not generated");
            }
        }
        Path target = options.output();
        Path partial = partial(target);
        TraceHeader header = TraceHeader.generated(
                EnvironmentWriter.toolVersion(),
                RunFolder.digest(redactedXml),
                module.name(),
                config.randomSeed(),
                config.terminals());
        long start = System.nanoTime();
        long issued;
        boolean done = false;
        // Ctrl-C or a kill ends the JVM without unwinding this method: the partial file goes with it.
        Thread cleanup = new Thread(() -> deletePartial(partial, target), "generate-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup);
        try {
            try (TraceWriter writer = TraceWriter.open(partial, header, Deflater.BEST_SPEED)) {
                GeneratingModule generating = new GeneratingModule(module, writer);
                issued = generator.run(id -> generating.newTerminal(config, kind, id));
            }
            if (!partial.equals(target)) {
                Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            }
            done = true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return RunLifecycle.interrupted(err);
        } catch (IOException e) {
            err.println("error: -o " + target + ": " + e.getMessage());
            return RunLifecycle.FAILED;
        } catch (Exception e) {
            err.println("error: generate: " + e.getMessage());
            return RunLifecycle.FAILED;
        } finally {
            if (!done) {
                deletePartial(partial, target);
            }
            try {
                Runtime.getRuntime().removeShutdownHook(cleanup);
            } catch (IllegalStateException e) {
                // the JVM is already shutting down: the hook runs and finds the file moved or gone
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        out.printf(
                Locale.ROOT,
                "Generated %,d operations of %d terminals in %.2f s (%,.0f ops/s): %s%n",
                issued,
                config.terminals(),
                seconds,
                issued / Math.max(seconds, 1e-9),
                target);
        return RunLifecycle.COMPLETED;
    }

    private void deletePartial(Path partial, Path target) {
        if (partial.equals(target)) {
            return;
        }
        try {
            Files.deleteIfExists(partial);
        } catch (IOException e) {
            err.println("warning: could not remove " + partial + ": " + e.getMessage());
        }
    }
}
