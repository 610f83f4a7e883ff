package org.ivsbench.bench.ycsbivs;

import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

import org.ivsbench.bench.BenchmarkModule;
import org.ivsbench.bench.LoadProgress;
import org.ivsbench.bench.LoadReport;
import org.ivsbench.bench.Terminal;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.ConfigException;
import org.ivsbench.target.Target;
import org.ivsbench.target.TargetException;

/** Placeholder until the ycsbivs module lands. */
public final class YcsbIvsModule implements BenchmarkModule {
    @Override public String name() { return "ycsbivs"; }
    @Override public List<String> supportedTransactionTypes() { return List.of(); }
    @Override public Set<String> parameterNames() { return Set.of(); }
    @Override public Set<String> phaseParameterNames() { return Set.of(); }
    @Override public void validate(BenchmarkConfig config) throws ConfigException { }
    @Override public void create(BenchmarkConfig config, Target target) throws TargetException {
        throw new TargetException("ycsbivs is not built yet");
    }
    @Override public void clear(BenchmarkConfig config, Target target) throws TargetException {
        throw new TargetException("ycsbivs is not built yet");
    }
    @Override public LoadReport load(BenchmarkConfig config, Target target, LoadProgress progress) throws TargetException {
        throw new TargetException("ycsbivs is not built yet");
    }
    @Override public Terminal newTerminal(BenchmarkConfig config, Target target, int terminalId, SplittableRandom random)
            throws TargetException {
        throw new TargetException("ycsbivs is not built yet");
    }
}
