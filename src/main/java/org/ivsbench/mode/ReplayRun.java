package org.ivsbench.mode;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import org.ivsbench.bench.BenchmarkModule;
import org.ivsbench.bench.LoadProgress;
import org.ivsbench.bench.LoadReport;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;
import org.ivsbench.db.Targets;
import org.ivsbench.run.RunFolder;
import org.ivsbench.run.RunLifecycle;
import org.ivsbench.trace.ReplayResult;
import org.ivsbench.trace.Replayer;
import org.ivsbench.trace.Trace;

/**
 * The replay mode, once its trace and config are checked: optionally create and load the config's database, re-run
 * the trace's operations on it ({@link Replayer}), write replay-digest.txt and replay-summary.txt to a new
 * {@code replay_<time>} folder and compare every read's result with the recorded one (docs/trace.md).
 */
public final class ReplayRun {
    private static final int SHOWN_DIFFERENCES = 5;

    /** The replay subcommand's options as plain values. */
    public record Options(Replayer.Timing timing, int terminals, Path directory, boolean create, boolean load) {}

    private final PrintStream out;
    private final PrintStream err;

    public ReplayRun(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    /** Replays {@code trace} on {@code config}'s database; returns the exit code 0 (digests equal), 1 or 130. */
    public int run(BenchmarkModule module, BenchmarkConfig config, Trace trace, Options options) {
        if (config.randomSeed() != trace.header().seed() && options.load()) {
            err.println("warning: the config's seed " + config.randomSeed() + " is not the recorded run's "
                    + trace.header().seed() + ": the loaded data will differ");
        }
        if (trace.header().generated() && options.timing() == Replayer.Timing.RECORDED) {
            out.println("The trace was generated without a database: it holds no timing, so it replays back to back"
                    + " (timing fast).");
            options = new Options(
                    Replayer.Timing.FAST, options.terminals(), options.directory(), options.create(), options.load());
        }
        try (Target target = Targets.open(config.target())) {
            if (options.create()) {
                module.create(config, target);
                out.println("Created the " + module.name() + " schema.");
            }
            if (options.load()) {
                LoadReport r = module.load(config, target, LoadProgress.NONE);
                out.printf("Loaded %,d records.%n", r.records());
                r.notes().forEach(out::println);
            }
            out.printf(
                    "Replaying %,d operations of %d terminals (timing %s)%n",
                    trace.records(),
                    trace.header().terminals(),
                    options.timing().name().toLowerCase(Locale.ROOT));
            ReplayResult result = new Replayer(target, options.timing(), options.terminals()).run(trace);
            Path dir = RunFolder.create(options.directory(), "replay");
            result.writeDigest(dir.resolve("replay-digest.txt"));
            result.writeSummary(dir.resolve("replay-summary.txt"));
            return report(result, dir);
        } catch (TargetException e) {
            err.println("error: database: " + e.getMessage());
            return RunLifecycle.FAILED;
        } catch (IOException e) {
            err.println("error: " + e.getMessage());
            return RunLifecycle.FAILED;
        } catch (InterruptedException e) {
            return RunLifecycle.interrupted(err);
        }
    }

    private int report(ReplayResult result, Path dir) {
        result.latenessLines().forEach(out::println);
        out.println("Results: " + dir);
        result.failures().forEach(f -> err.println("error: " + f));
        if (!result.checked()) {
            out.printf(
                    "digests not checked: the trace was generated without a database, its %,d reads carry no result"
                            + " digest (replayed digest %s)%n",
                    result.reads(), result.digest());
            return result.failures().isEmpty() ? RunLifecycle.COMPLETED : RunLifecycle.FAILED;
        }
        if (result.digestsEqual()) {
            out.println("digests equal: " + result.digest());
            return result.failures().isEmpty() ? RunLifecycle.COMPLETED : RunLifecycle.FAILED;
        }
        List<ReplayResult.Read> diffs = result.differences();
        out.println("digests differ: replayed " + result.digest() + ", recorded " + result.recordedDigest() + "; "
                + diffs.size() + " reads differ");
        for (ReplayResult.Read d : diffs.subList(0, Math.min(SHOWN_DIFFERENCES, diffs.size()))) {
            out.println("  terminal " + d.terminal() + " seq " + d.seq() + ": " + d.op() + " " + d.key()
                    + " returned a different result (hash " + d.replayed() + ", recorded " + d.recorded() + ")");
        }
        return RunLifecycle.FAILED;
    }
}
