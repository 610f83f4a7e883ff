package org.ivsbench.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import org.ivsbench.db.TargetKinds;

/**
 * The names the ycsbivs module declares, copied here so the config tests do not depend on the module's
 * progress (the brief for the sample configs lists them).
 */
final class YcsbIvsNames {
    static final String BENCHMARK = "ycsbivs";
    static final List<String> TRANSACTION_TYPES = List.of(
            "ReadRecord",
            "ExtendRecord",
            "UpdateRecord",
            "InsertRecord",
            "ScanRecord",
            "DeleteRecord",
            "ReadModifyWriteRecord");
    static final Set<String> PARAMETERS = Set.of(
            "recordcount",
            "fieldcount",
            "fieldlength",
            "extendfieldlength",
            "maxfieldlength",
            "extendmethod",
            "engine",
            "keyorder",
            "table",
            "scanlength",
            "zipfianconstant",
            "readallfields",
            "writeallfields",
            "fieldlengthdistribution",
            "extendlengthdistribution",
            "keys");
    static final Set<String> PHASE_PARAMETERS = Set.of("distribution", "distributions");

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
