package org.ivsbench.bench;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.ConfigException;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;

/**
 * A benchmark module that is another one in every respect; a subclass changes what it needs (the raw per-operation
 * CSV and the trace wrap the terminals, nothing else).
 */
public abstract class ForwardingModule implements BenchmarkModule {
    protected final BenchmarkModule module;

    protected ForwardingModule(BenchmarkModule module) {
        this.module = module;
    }

    @Override
    public String name() {
        return module.name();
    }

    @Override
    public List<String> supportedTransactionTypes() {
        return module.supportedTransactionTypes();
    }

    @Override
    public Set<String> parameterNames() {
        return module.parameterNames();
    }

    @Override
    public Map<String, Long> shrinkCaps() {
        return module.shrinkCaps();
    }

    @Override
    public Set<String> phaseParameterNames() {
        return module.phaseParameterNames();
    }

    @Override
    public void validate(BenchmarkConfig config) throws ConfigException {
        module.validate(config);
    }

    @Override
    public void create(BenchmarkConfig config, Target target) throws TargetException {
        module.create(config, target);
    }

    @Override
    public void checkReady(BenchmarkConfig config, Target target) throws TargetException {
        module.checkReady(config, target);
    }

    @Override
    public void clear(BenchmarkConfig config, Target target) throws TargetException {
        module.clear(config, target);
    }

    @Override
    public LoadReport load(BenchmarkConfig config, Target target, LoadProgress progress)
            throws TargetException, InterruptedException {
        return module.load(config, target, progress);
    }

    @Override
    public Terminal newTerminal(BenchmarkConfig config, Target target, int terminalId) throws TargetException {
        return module.newTerminal(config, target, terminalId);
    }

    @Override
    public Optional<String> tableEngine(BenchmarkConfig config) {
        return module.tableEngine(config);
    }

    @Override
    public Optional<ExperimentSupport> experiment() {
        return module.experiment();
    }
}
