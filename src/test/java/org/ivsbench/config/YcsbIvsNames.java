package org.ivsbench.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import org.ivsbench.bench.ycsbivs.YcsbIvsParameters;
import org.ivsbench.bench.ycsbivs.procedures.Procedures;
import org.ivsbench.db.TargetKinds;

/**
 * The names the ycsbivs module declares, taken from the module itself so the config tests load every sample
 * with exactly the transaction types and parameters the benchmark accepts (a copy drifted as types were added).
 */
final class YcsbIvsNames {
    static final String BENCHMARK = "ycsbivs";
    static final List<String> TRANSACTION_TYPES = Procedures.names();
    static final Set<String> PARAMETERS = YcsbIvsParameters.NAMES;
    static final Set<String> PHASE_PARAMETERS = YcsbIvsParameters.PHASE_NAMES;

    private YcsbIvsNames() {}

    static BenchmarkConfig load(Path file, Map<String, String> environment) throws ConfigException {
        Function<String, String> env = environment::get;
        return ConfigLoader.load(
                file, BENCHMARK, TRANSACTION_TYPES, PARAMETERS, PHASE_PARAMETERS, TargetKinds::resolve, env);
    }

    static BenchmarkConfig load(Path file) throws ConfigException {
        return load(file, Map.of());
    }
}
