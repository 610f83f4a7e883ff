package org.ivsbench.bench.ycsb;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.ivsbench.bench.BenchmarkModule;
import org.ivsbench.bench.LoadProgress;
import org.ivsbench.bench.LoadReport;
import org.ivsbench.bench.Terminal;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.ConfigException;
import org.ivsbench.config.PhaseConfig;
import org.ivsbench.config.Shard;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;
import org.ivsbench.db.TargetKinds;

/**
 * ycsb: BenchBase's YCSB, so a BenchBase config and a table BenchBase loaded work unchanged (and the other way
 * round). One instance per run: it holds the run's shared keys.
 */
public final class YcsbModule implements BenchmarkModule {
    private static final Logger LOG = LoggerFactory.getLogger(YcsbModule.class);

    private YcsbKeys keys;

    @Override
    public String name() {
        return "ycsb";
    }

    @Override
    public List<String> supportedTransactionTypes() {
        return YcsbProcedure.names();
    }

    @Override
    public Set<String> parameterNames() {
        return YcsbParameters.NAMES;
    }

    @Override
    public Set<String> phaseParameterNames() {
        return Set.of();
    }

    @Override
    public void validate(BenchmarkConfig config) throws ConfigException {
        if (TargetKinds.of(config.target().type()).defaultDriver().isEmpty()) {
            // BenchBase's YCSB is defined on a SQL table with integer keys (scans are key ranges).
            throw new ConfigException(
                    "type",
                    "'" + config.target().type() + "' is not a SQL database: -b ycsb is"
                            + " BenchBase's YCSB for SQL databases; use -b ycsbivs (YCSB's string keys) for it");
        }
        YcsbParameters p = YcsbParameters.from(config);
        if (p.fieldSizeClamped()) {
            LOG.warn(
                    "fieldSize {} is above the {}-character columns: using {} (as BenchBase does)",
                    config.parameters().get("fieldSize"),
                    YcsbParameters.MAX_FIELD_SIZE,
                    p.fieldSize());
        }
        List<String> types = config.transactionTypeNames();
        for (int i = 0; i < types.size(); i++) {
            if (YcsbProcedure.byName(types.get(i)).isEmpty()) {
                throw new ConfigException(
                        "transactiontypes/transactiontype[" + (i + 1) + "]/name",
                        "'" + types.get(i) + "' is not a ycsb transaction type; known: "
                                + String.join(", ", YcsbProcedure.names()));
            }
        }
        for (PhaseConfig phase : config.phases()) {
            if (!phase.parameters().isEmpty()) {
                throw new ConfigException(
                        "works/work[" + (phase.index() + 1) + "]/"
                                + phase.parameters().keySet().iterator().next(),
                        "ycsb has no per-phase parameters");
            }
        }
    }

    @Override
    public void create(BenchmarkConfig config, Target target) throws TargetException {
        target.createTable(parameters(config).tableSpec());
    }

    @Override
    public void clear(BenchmarkConfig config, Target target) throws TargetException {
        target.dropTable(YcsbParameters.TABLE);
    }

    @Override
    public LoadReport load(BenchmarkConfig config, Target target, LoadProgress progress)
            throws TargetException, InterruptedException {
        return new YcsbLoader(config, parameters(config)).load(target, progress);
    }

    @Override
    public Terminal newTerminal(BenchmarkConfig config, Target target, int terminalId) throws TargetException {
        YcsbParameters parameters = parameters(config);
        List<YcsbProcedure> procedures = new ArrayList<>();
        for (String type : config.transactionTypeNames()) {
            procedures.add(YcsbProcedure.byName(type)
                    .orElseThrow(() -> new TargetException(
                            "'" + type + "' is not a ycsb transaction type (validate() should have said so)")));
        }
        return new YcsbTerminal(config, target, terminalId, parameters, procedures, keys(parameters, config.shard()));
    }

    private synchronized YcsbKeys keys(YcsbParameters parameters, Shard shard) {
        if (keys == null) {
            keys = new YcsbKeys(parameters, shard);
        }
        return keys;
    }

    private static YcsbParameters parameters(BenchmarkConfig config) throws TargetException {
        try {
            return YcsbParameters.from(config);
        } catch (ConfigException e) {
            throw new TargetException("invalid ycsb configuration: " + e.getMessage());
        }
    }
}
