package org.ivsbench.stats;

import java.util.List;
import java.util.Map;

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
}
