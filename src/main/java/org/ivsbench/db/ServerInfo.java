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
