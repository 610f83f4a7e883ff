package org.ivsbench.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The whole validated configuration of a run, immutable. {@code parameters} are the benchmark-specific
 * top-level elements (ycsbivs: recordcount, fieldcount, ...), validated by the benchmark module;
 * {@code experiment} is the raw experiment section handed to the experiment runner (null when absent);
 * {@code sweep} the {@code <sweep>} section (null when absent). {@code shrunk}: what {@code --shrink} changed
 * ("recordcount 1000 -> 100", ...), empty for a config run at its own size; results record it.
 * {@code metricsListen}: {@code <metrics><listen>} (HOST:PORT of the metrics endpoint), null when absent.
 */
public record BenchmarkConfig(
        Path source,
        TargetConfig target,
        int terminals,
        int loaderThreads,
        long randomSeed,
        int batchSize,
        double scaleFactor,
        List<TransactionTypeConfig> transactionTypes,
        List<PhaseConfig> phases,
        Map<String, String> parameters,
        MonitorConfig monitor,
        Map<String, String> experiment,
        SweepConfig sweep,
        Shard shard,
        List<String> shrunk,
        String metricsListen) {

    public BenchmarkConfig {
        transactionTypes = List.copyOf(transactionTypes);
        phases = List.copyOf(phases);
        parameters = Map.copyOf(parameters);
        experiment = experiment == null ? null : Map.copyOf(experiment);
        shard = shard == null ? Shard.WHOLE : shard;
        shrunk = shrunk == null ? List.of() : List.copyOf(shrunk);
    }

    /** The benchmark parameters read as typed leaves, errors named as in the file ({@code keys/length}). */
    public LeafView parameterView() {
        return LeafView.of(parameters, "");
    }

    /** The {@code <experiment>} section read as typed leaves ({@code experiment/extend/count}); null when absent. */
    public LeafView experimentView() {
        return experiment == null ? null : LeafView.of(experiment, "experiment");
    }

    public List<String> transactionTypeNames() {
        return transactionTypes.stream().map(TransactionTypeConfig::name).toList();
    }

    public BenchmarkConfig withPhases(List<PhaseConfig> newPhases) {
        return toBuilder().phases(newPhases).build();
    }

    public BenchmarkConfig withTarget(TargetConfig newTarget) {
        return toBuilder().target(newTarget).build();
    }

    public BenchmarkConfig withMonitor(MonitorConfig newMonitor) {
        return toBuilder().monitor(newMonitor).build();
    }

    public BenchmarkConfig withParameters(Map<String, String> newParameters) {
        return toBuilder().parameters(newParameters).build();
    }

    /**
     * A config for {@code target} with the loader's defaults for an otherwise empty file: one terminal and loader
     * thread, seed 0, batches of 128, scale factor 1, no transaction types or phases, no benchmark parameters,
     * the default monitor, no experiment.
     */
    public static Builder builder(TargetConfig target) {
        return new Builder(target);
    }

    public Builder toBuilder() {
        return new Builder(target)
                .source(source)
                .terminals(terminals)
                .loaderThreads(loaderThreads)
                .randomSeed(randomSeed)
                .batchSize(batchSize)
                .scaleFactor(scaleFactor)
                .transactionTypes(transactionTypes)
                .phases(phases)
                .parameters(parameters)
                .monitor(monitor)
                .experiment(experiment)
                .sweep(sweep)
                .shard(shard)
                .shrunk(shrunk)
                .metricsListen(metricsListen);
    }

    /** Builds a {@link BenchmarkConfig} by named settings instead of twelve positional ones. */
    public static final class Builder {
        private Path source;
        private TargetConfig target;
        private int terminals = 1;
        private int loaderThreads = 1;
        private long randomSeed;
        private int batchSize = 128;
        private double scaleFactor = 1;
        private List<TransactionTypeConfig> transactionTypes = List.of();
        private List<PhaseConfig> phases = List.of();
        private Map<String, String> parameters = Map.of();
        private MonitorConfig monitor = MonitorConfig.defaults();
        private Map<String, String> experiment;
        private SweepConfig sweep;
        private Shard shard = Shard.WHOLE;
        private List<String> shrunk = List.of();
        private String metricsListen;

        private Builder(TargetConfig target) {
            this.target = target;
        }

        public Builder source(Path value) {
            source = value;
            return this;
        }

        public Builder target(TargetConfig value) {
            target = value;
            return this;
        }

        public Builder terminals(int value) {
            terminals = value;
            return this;
        }

        public Builder loaderThreads(int value) {
            loaderThreads = value;
            return this;
        }

        public Builder randomSeed(long value) {
            randomSeed = value;
            return this;
        }

        public Builder batchSize(int value) {
            batchSize = value;
            return this;
        }

        public Builder scaleFactor(double value) {
            scaleFactor = value;
            return this;
        }

        public Builder transactionTypes(List<TransactionTypeConfig> value) {
            transactionTypes = value;
            return this;
        }

        public Builder phases(List<PhaseConfig> value) {
            phases = value;
            return this;
        }

        public Builder parameters(Map<String, String> value) {
            parameters = value;
            return this;
        }

        public Builder monitor(MonitorConfig value) {
            monitor = value;
            return this;
        }

        /** The flattened {@code <experiment>} section, or null for none. */
        public Builder experiment(Map<String, String> value) {
            experiment = value;
            return this;
        }

        /** The {@code <sweep>} section, or null for none. */
        public Builder sweep(SweepConfig value) {
            sweep = value;
            return this;
        }

        /** The part of the run this driver takes ({@code --shard i/n}); {@link Shard#WHOLE} by default. */
        public Builder shard(Shard value) {
            shard = value;
            return this;
        }

        /** What {@code --shrink} changed, one "what old -> new" per item; empty when not shrunk. */
        public Builder shrunk(List<String> value) {
            shrunk = value;
            return this;
        }

        /** {@code <metrics><listen>}: where the metrics endpoint listens; null for none. */
        public Builder metricsListen(String value) {
            metricsListen = value;
            return this;
        }

        public BenchmarkConfig build() {
            return new BenchmarkConfig(
                    source,
                    target,
                    terminals,
                    loaderThreads,
                    randomSeed,
                    batchSize,
                    scaleFactor,
                    transactionTypes,
                    phases,
                    parameters,
                    monitor,
                    experiment,
                    sweep,
                    shard,
                    shrunk,
                    metricsListen);
        }
    }
}
