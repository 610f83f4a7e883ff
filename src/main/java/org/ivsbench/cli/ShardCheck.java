package org.ivsbench.cli;

import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.PhaseConfig;
import org.ivsbench.config.RateSpec;
import org.ivsbench.config.Shard;
import org.ivsbench.mode.RunOptions;
import org.ivsbench.mode.UsageException;

/**
 * The checks of {@code --shard i/n} in the phases mode and {@code --barrier-timeout}, before anything is touched: every shard must
 * own at least one terminal, one active terminal of every phase that runs and one operation of every count phase
 * (a shard with none would wait forever or miss every arrival).
 */
final class ShardCheck {
    private ShardCheck() {}

    static Shard parse(String text) throws UsageException {
        if (text == null) {
            return Shard.WHOLE;
        }
        try {
            return Shard.parse(text);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--shard: '" + text + "': " + e.getMessage());
        }
    }

    /** The options a shard cannot have (whether the mode takes --shard at all is the mode's: ExecutionMode). */
    static void checkOptions(RunOptions options, Shard shard) throws UsageException {
        if (options.barrierTimeoutSeconds() < 1 || options.barrierTimeoutSeconds() > 86_400) {
            throw new UsageException(
                    "--barrier-timeout: '" + options.barrierTimeoutSeconds() + "' must be between 1 and 86400 seconds");
        }
        if (shard.whole()) {
            return;
        }
        String opt = "--shard " + shard + ": ";
        if (options.create() || options.clear() || options.load()) {
            throw new UsageException(opt + (options.create() ? "--create" : options.clear() ? "--clear" : "--load")
                    + " is not for a shard (each would drop or load the tables under the others): create and load"
                    + " once with the same command without --shard, then start the shards with --execute");
        }
        if (options.trace() != null) {
            throw new UsageException(opt + "--trace is not supported with --shard (a trace holds one driver's"
                    + " terminals; trace a run without --shard)");
        }
    }

    /** Every shard must own a terminal, an active terminal of every phase and an operation of every count phase. */
    static void checkConfig(Shard shard, BenchmarkConfig config) throws UsageException {
        if (shard.whole()) {
            return;
        }
        String opt = "--shard " + shard + ": ";
        if (config.terminals() < shard.count()) {
            throw new UsageException(opt + "the config has " + config.terminals() + " terminal(s); every shard needs"
                    + " at least one (set <terminals> to at least " + shard.count() + ")");
        }
        for (PhaseConfig p : config.phases()) {
            if (p.rate().kind() != RateSpec.Kind.DISABLED && p.activeTerminals() < shard.count()) {
                throw new UsageException(opt + "works/work[" + (p.index() + 1) + "] has " + p.activeTerminals()
                        + " active terminal(s); every shard needs at least one");
            }
            if (p.endsByCount() && p.count() < shard.count()) {
                throw new UsageException(opt + "works/work[" + (p.index() + 1) + "]/count is " + p.count()
                        + "; every shard needs at least one operation");
            }
        }
    }
}
