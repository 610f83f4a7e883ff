package org.ivsbench.target.jdbc;

import org.ivsbench.config.TargetConfig;
import org.ivsbench.target.Target;
import org.ivsbench.target.TargetException;

/** Placeholder until the JDBC target lands. */
public final class JdbcTarget {
    private JdbcTarget() {
    }

    public static Target open(TargetConfig config) throws TargetException {
        throw new TargetException("the JDBC target is not built yet");
    }
}
