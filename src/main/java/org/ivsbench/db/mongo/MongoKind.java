package org.ivsbench.db.mongo;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.ivsbench.config.TargetConfig;
import org.ivsbench.db.CounterKind;
import org.ivsbench.db.KindFeatures;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;
import org.ivsbench.db.TargetKind;

import static org.ivsbench.db.KindFeatures.Feature.FRESH_DATABASES;
import static org.ivsbench.db.KindFeatures.Feature.RANGE_BETWEEN;
import static org.ivsbench.db.KindFeatures.Feature.RANGE_DELETE;
import static org.ivsbench.db.KindFeatures.Feature.SERVER_EXTEND;

/** MongoDB: no JDBC driver and no isolation levels; the counters are the chosen few of serverStatus. */
public final class MongoKind implements TargetKind {

    @Override
    public List<String> names() {
        return List.of("MONGODB");
    }

    @Override
    public String displayName() {
        return "MongoDB";
    }

    @Override
    public List<String> urlPrefixes() {
        return List.of("mongodb://", "mongodb+srv://");
    }

    @Override
    public String exampleUrl() {
        return "mongodb://<host>:<port>/<database>";
    }

    @Override
    public Optional<String> defaultDriver() {
        return Optional.empty();
    }

    @Override
    public Optional<String> defaultIsolation() {
        return Optional.empty();
    }

    @Override
    public Optional<ServerProcess> serverProcess() {
        return Optional.of(new ServerProcess("mongod", 27017));
    }

    @Override
    public Map<String, CounterKind> defaultCounters() {
        return ServerCounters.DEFAULTS;
    }

    @Override
    public KindFeatures features() {
        return KindFeatures.of(SERVER_EXTEND, RANGE_DELETE, RANGE_BETWEEN, FRESH_DATABASES);
    }

    @Override
    public Target open(TargetConfig config) throws TargetException {
        return MongoTarget.open(config);
    }
}
