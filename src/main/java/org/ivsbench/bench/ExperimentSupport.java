package org.ivsbench.bench;

import java.util.Map;
import java.util.Set;

import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.ConfigException;
import org.ivsbench.config.LeafView;

/**
 * The capability of running the YCSB-IVS experiment (a config's {@code <experiment>}), offered by a benchmark
 * through {@link BenchmarkModule#experiment()}. The experiment's generic leaves (epochs, modes, warmup,
 * clean/method, fresh/...) are the experiment runner's; the benchmark owns the leaves that say what its
 * phases do and turns them into an {@link ExperimentWorkload}.
 */
public interface ExperimentSupport {

    /** The leaf paths of {@code <experiment>} this benchmark reads (e.g. {@code extend/count}). */
    Set<String> leaves();

    /**
     * How {@code --shrink} shrinks this benchmark's leaves: the leaves that size a phase (e.g. an operation count)
     * and the largest value a shrunk run keeps. Empty by default.
     */
    default Map<String, Long> shrinkCaps() {
        return Map.of();
    }

    /**
     * Parses and validates this benchmark's leaves of the flattened {@code <experiment>} section (it may hold
     * the generic leaves too; they are not this benchmark's to check). {@code config} is the validated rest of
     * the config. Read the leaves through {@code section}'s typed readers, so that errors name
     * {@code experiment/<leaf>} and quote the value as every other config error does.
     */
    ExperimentWorkload parse(LeafView section, BenchmarkConfig config) throws ConfigException;
}
