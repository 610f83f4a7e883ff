package org.ivsbench.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The whole validated configuration of a run, immutable. {@code parameters} are the benchmark-specific
 * top-level elements (ycsbivs: recordcount, fieldcount, ...), validated by the benchmark module;
 * {@code experiment} is the raw experiment section handed to the experiment runner (null when absent).
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
        Map<String, String> experiment) {

    public BenchmarkConfig {
        transactionTypes = List.copyOf(transactionTypes);
        phases = List.copyOf(phases);
        parameters = Map.copyOf(parameters);
        experiment = experiment == null ? null : Map.copyOf(experiment);
    }

    public List<String> transactionTypeNames() {
        return transactionTypes.stream().map(TransactionTypeConfig::name).toList();
    }

    public BenchmarkConfig withPhases(List<PhaseConfig> newPhases) {
        return new BenchmarkConfig(source, target, terminals, loaderThreads, randomSeed, batchSize, scaleFactor,
                transactionTypes, newPhases, parameters, monitor, experiment);
    }

    public BenchmarkConfig withTarget(TargetConfig newTarget) {
        return new BenchmarkConfig(source, newTarget, terminals, loaderThreads, randomSeed, batchSize, scaleFactor,
                transactionTypes, phases, parameters, monitor, experiment);
    }

    public BenchmarkConfig withParameters(Map<String, String> newParameters) {
        return new BenchmarkConfig(source, target, terminals, loaderThreads, randomSeed, batchSize, scaleFactor,
                transactionTypes, phases, newParameters, monitor, experiment);
    }
}
