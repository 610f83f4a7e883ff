package org.ivsbench.db;

import org.ivsbench.config.TargetConfig;
import org.ivsbench.db.jdbc.JdbcTarget;
import org.ivsbench.db.mongo.MongoTarget;

/** Opens the target a configuration names. */
public final class Targets {
    private Targets() {
    }

    public static Target open(TargetConfig config) throws TargetException {
        return switch (config.type()) {
            case SQLITE, MARIADB, MYSQL -> JdbcTarget.open(config);
            case MONGODB -> MongoTarget.open(config);
        };
    }
}
