package org.ivsbench.bench.kv;

import java.util.List;
import java.util.Set;

import org.ivsbench.bench.BenchmarkModule;
import org.ivsbench.bench.LoadProgress;
import org.ivsbench.bench.LoadReport;
import org.ivsbench.bench.Terminal;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.ConfigException;
import org.ivsbench.db.TableSpec;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;

/**
 * kv, a benchmark for tests only (-b kv): scalefactor x 1000 records of one {@code valuesize}-character value
 * (default 10), read or overwritten at uniformly chosen keys. It shows what a benchmark writes: this module (its
 * name, parameters and table), its operations ({@link KvTerminal}) and its record shape ({@link KvLoader});
 * sessions, failures, reconnects, loader threads and batches are the skeleton's. Registered by one line in
 * src/test/resources/META-INF/services/org.ivsbench.bench.BenchmarkModule.
 */
public final class KvModule implements BenchmarkModule {
    static final String TABLE = "kv";
    static final String FIELD = "v";
    static final List<String> TYPES = List.of("Get", "Put");

    @Override
    public String name() {
        return "kv";
    }

    @Override
    public List<String> supportedTransactionTypes() {
        return TYPES;
    }

    @Override
    public Set<String> parameterNames() {
        return Set.of("valuesize");
    }

    @Override
    public Set<String> phaseParameterNames() {
        return Set.of();
    }

    /** The transaction types are checked by the generic config loader against {@link #supportedTransactionTypes}. */
    @Override
    public void validate(BenchmarkConfig config) throws ConfigException {
        valueSize(config);
    }

    /** The {@code valuesize} element: a whole number from 1 to 1,000,000; 10 when absent (the typed view's errors). */
    static int valueSize(BenchmarkConfig config) throws ConfigException {
        return (int) config.parameterView().longBetween("valuesize", 10, 1, 1_000_000);
    }

    static long records(BenchmarkConfig config) {
        return Math.max(1, Math.round(config.scaleFactor() * 1000));
    }

    @Override
    public void create(BenchmarkConfig config, Target target) throws TargetException {
        target.createTable(new TableSpec(TABLE, "k", List.of(FIELD), 1_000_000, null));
    }

    @Override
    public void clear(BenchmarkConfig config, Target target) throws TargetException {
        target.dropTable(TABLE);
    }

    @Override
    public LoadReport load(BenchmarkConfig config, Target target, LoadProgress progress)
            throws TargetException, InterruptedException {
        return new KvLoader(config).load(target, progress);
    }

    @Override
    public Terminal newTerminal(BenchmarkConfig config, Target target, int terminalId) throws TargetException {
        return new KvTerminal(config, target, terminalId);
    }
}
