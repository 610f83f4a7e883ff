package org.ivsbench.db;

import java.util.Map;
import java.util.Optional;

/** A target's capability: what the server reports about itself and its tables. */
public interface ServerInfo {

    /**
     * Server facts for environment.json: product, version, storage engine, buffer pool / cache size,
     * max_allowed_packet / document size limit, ...
     */
    Map<String, Object> environment() throws TargetException;

    /**
     * The server settings that decide how fast it runs (cache sizes, log sizes, flushing), by name: an
     * experiment compares the primary's server with a fresh instance's. Empty where the kind has none to compare.
     */
    default Map<String, Object> settings() throws TargetException {
        return Map.of();
    }

    /**
     * The storage engine the server reports for {@code table}, or empty where the kind has no such choice or
     * the table does not exist.
     */
    default Optional<String> tableEngine(String table) throws TargetException {
        return Optional.empty();
    }

    /**
     * The target's environment, the error in its place, or nothing when the target cannot tell: a results
     * folder records what it could learn.
     */
    static Map<String, Object> environmentOf(Target target) {
        Optional<ServerInfo> info = target.capability(ServerInfo.class);
        if (info.isEmpty()) {
            return Map.of();
        }
        try {
            return info.get().environment();
        } catch (TargetException e) {
            return Map.of("error", String.valueOf(e.getMessage()));
        }
    }
}
