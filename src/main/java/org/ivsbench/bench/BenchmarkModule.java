package org.ivsbench.bench;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.ConfigException;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;

/**
 * A benchmark: its schema, loader and procedures. Speaks in record operations through {@link Target};
 * never in SQL or BSON. Registered by a line in {@code META-INF/services/org.ivsbench.bench.BenchmarkModule}
 * ({@link BenchmarkRegistry}); its terminals extend {@link SessionTerminal} and its loader {@link ChunkedLoader}
 * (docs/benchmarks.md).
 */
public interface BenchmarkModule {

    String name();

    /** Every transaction type name this benchmark can run (the config chooses a subset and its order). */
    List<String> supportedTransactionTypes();

    /** Names of the benchmark-specific top-level config elements it accepts (e.g. recordcount). */
    Set<String> parameterNames();

    /** Names of the benchmark-specific per-phase elements it accepts (e.g. distribution). */
    Set<String> phaseParameterNames();

    /**
     * How {@code --shrink} shrinks this benchmark's own size parameters: the top-level parameter names that count
     * records (or other run sizes) and the largest value a shrunk run keeps ({@link org.ivsbench.config.Shrink}).
     * Empty: the benchmark sizes its data by {@code scalefactor} alone, which the shrink caps generically.
     */
    default Map<String, Long> shrinkCaps() {
        return Map.of();
    }

    /**
     * Validates the benchmark-specific parts of a config that the generic loader already accepted.
     * Errors name the element path and the value.
     */
    void validate(BenchmarkConfig config) throws ConfigException;

    /** Creates the schema (dropping what is there). */
    void create(BenchmarkConfig config, Target target) throws TargetException;

    /**
     * Checks, before phases run, that the database is what the config says it is (e.g. the table's storage
     * engine), so results never describe a configuration that did not run. Fails with a message that says
     * what differs and how to fix it.
     */
    default void checkReady(BenchmarkConfig config, Target target) throws TargetException {}

    /**
     * The table storage engine the config asks for, as written (summary.json's {@code database.engine}); empty
     * when the benchmark has no such setting or the config leaves it to the server.
     */
    default Optional<String> tableEngine(BenchmarkConfig config) {
        return Optional.empty();
    }

    /** Removes the benchmark's data (the --clear option). */
    void clear(BenchmarkConfig config, Target target) throws TargetException;

    /** Loads the initial data with the config's loader threads; reports progress as it goes. */
    LoadReport load(BenchmarkConfig config, Target target, LoadProgress progress)
            throws TargetException, InterruptedException;

    /** A terminal with its own session; its random stream comes with each phase ({@link Terminal#startPhase}). */
    Terminal newTerminal(BenchmarkConfig config, Target target, int terminalId) throws TargetException;

    /**
     * The experiment this benchmark can run (a config's {@code <experiment>}); empty when it offers none, which
     * makes an {@code <experiment>} section a config error.
     */
    default Optional<ExperimentSupport> experiment() {
        return Optional.empty();
    }
}
