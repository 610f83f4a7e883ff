package org.ivsbench.stats;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.PhaseConfig;

/** The run-level facts summary.json carries besides the phase figures. */
public record RunInfo(
        String toolVersion,
        String benchmark,
        Map<String, Object> database,
        String configDigest,
        long randomSeed,
        int terminals,
        int windowSeconds,
        List<PhaseConfig> phases) {

    public RunInfo {
        database = Map.copyOf(database);
        phases = List.copyOf(phases);
    }

    /**
     * summary.json's {@code database} block: the target type, the product, version and engine the server
     * reported (environment.json has all of it), and the configured table engine where it applies (the
     * benchmark's {@code tableEngine}: it accepts one only for a kind with a choice of engines).
     */
    public static Map<String, Object> databaseBlock(
            BenchmarkConfig config, Optional<String> tableEngine, Map<String, Object> environment) {
        Map<String, Object> db = new LinkedHashMap<>();
        db.put("type", config.target().type());
        for (String key : List.of("product", "version", "engine")) {
            Object v = environment.get(key);
            if (v != null) {
                db.put(key, v);
            }
        }
        tableEngine.ifPresent(engine -> db.put("engine", engine));
        return db;
    }
}
