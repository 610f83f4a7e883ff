package org.ivsbench.db;

import org.ivsbench.config.TargetConfig;

/** Opens the target a configuration names. */
public final class Targets {
    private Targets() {}

    /** Opens a configuration {@link TargetKinds#resolve} accepted. */
    public static Target open(TargetConfig config) throws TargetException {
        TargetKind kind = TargetKinds.find(config.type())
                .orElseThrow(() -> new TargetException("unknown database type '" + config.type() + "' (one of "
                        + String.join(", ", TargetKinds.names()) + ")"));
        return kind.open(config);
    }
}
