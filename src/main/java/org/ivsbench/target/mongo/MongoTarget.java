package org.ivsbench.target.mongo;

import org.ivsbench.config.TargetConfig;
import org.ivsbench.target.Target;
import org.ivsbench.target.TargetException;

/** Placeholder until the MongoDB target lands. */
public final class MongoTarget {
    private MongoTarget() {
    }

    public static Target open(TargetConfig config) throws TargetException {
        throw new TargetException("the MongoDB target is not built yet");
    }
}
