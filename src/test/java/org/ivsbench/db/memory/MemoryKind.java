package org.ivsbench.db.memory;

import java.util.List;
import java.util.Optional;

import org.ivsbench.config.TargetConfig;
import org.ivsbench.db.KindFeatures;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;
import org.ivsbench.db.TargetKind;

import static org.ivsbench.db.KindFeatures.Feature.FRESH_DATABASES;
import static org.ivsbench.db.KindFeatures.Feature.RANGE_BETWEEN;
import static org.ivsbench.db.KindFeatures.Feature.RANGE_DELETE;
import static org.ivsbench.db.KindFeatures.Feature.SERVER_EXTEND;

/**
 * A database kept in this JVM's memory, for tests only: proof that a binding is one package plus one
 * registration line (src/test/resources/META-INF/services/TargetKind) and nothing else.
 * {@code <type>MEMORY</type><url>memory:NAME</url>}; every target of one NAME sees the same tables.
 */
public final class MemoryKind implements TargetKind {

    @Override
    public List<String> names() {
        return List.of("MEMORY");
    }

    @Override
    public String displayName() {
        return "in-memory test database";
    }

    @Override
    public List<String> urlPrefixes() {
        return List.of(MemoryTarget.PREFIX);
    }

    @Override
    public String exampleUrl() {
        return MemoryTarget.PREFIX + "<database>";
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
        return Optional.empty();
    }

    @Override
    public KindFeatures features() {
        return KindFeatures.of(SERVER_EXTEND, RANGE_DELETE, RANGE_BETWEEN, FRESH_DATABASES);
    }

    @Override
    public Target open(TargetConfig config) throws TargetException {
        return MemoryTarget.open(config.url());
    }
}
