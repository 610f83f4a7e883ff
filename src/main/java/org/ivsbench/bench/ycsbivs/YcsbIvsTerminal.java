package org.ivsbench.bench.ycsbivs;

import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.ivsbench.bench.SessionTerminal;
import org.ivsbench.bench.ycsbivs.procedures.NoLiveKey;
import org.ivsbench.bench.ycsbivs.procedures.Procedure;
import org.ivsbench.bench.ycsbivs.procedures.ProcedureContext;
import org.ivsbench.bench.ycsbivs.procedures.RangeRows;
import org.ivsbench.bench.ycsbivs.procedures.SectionKeys;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.ConfigException;
import org.ivsbench.config.PhaseConfig;
import org.ivsbench.db.Session;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;
import org.ivsbench.op.OpResult;
import org.ivsbench.random.DistributionSpec;
import org.ivsbench.random.KeyDistributions;
import org.ivsbench.random.LongGenerator;

/**
 * One ycsbivs terminal: procedures aligned with the config's transaction types, and the current phase's key
 * generator and random stream. Its session, failures and reconnects are the skeleton's ({@link SessionTerminal}).
 */
final class YcsbIvsTerminal extends SessionTerminal {
    private static final Logger LOG = LoggerFactory.getLogger(YcsbIvsTerminal.class);

    private final List<Procedure> procedures;
    private final ProcedureContext context;
    private final SharedKeys keys;
    private final RangeRows rangeRows;
    /** The key chooser of each transaction type in the current phase, aligned with procedures. */
    private final LongGenerator[] keysByType;
    /** Which transaction types use the phase's distribution (no own one): a ramp moves theirs. */
    private final boolean[] usesPhaseKeys;

    private PhaseConfig phase;
    /** The phase's ramped distribution, or null; the ramp slot its generators were built for. */
    private RampedDistribution ramped;

    private long rampSlot;

    private final YcsbIvsParameters parameters;
    /** The run's sections' key spaces by name (empty without sections). */
    private final Map<String, SectionKeys> sections;

    private final int insertType;
    /** The phase's section, or null; the dense key space its distributions draw over. */
    private SectionKeys section;

    private long cells;

    YcsbIvsTerminal(
            BenchmarkConfig config,
            Target target,
            int id,
            YcsbIvsParameters parameters,
            List<Procedure> procedures,
            SharedKeys keys,
            RangeRows rangeRows,
            Map<String, SectionKeys> sections)
            throws TargetException {
        super(config, target, id);
        this.procedures = List.copyOf(procedures);
        this.keys = keys;
        this.keysByType = new LongGenerator[procedures.size()];
        this.usesPhaseKeys = new boolean[procedures.size()];
        this.rangeRows = rangeRows;
        this.parameters = parameters;
        this.sections = sections;
        this.insertType = config.transactionTypeNames().indexOf(YcsbIvsModule.INSERT);
        this.context = new ProcedureContext(parameters, keys.insertCounter(), session(), rangeRows);
        rangeRows.terminalOpened();
    }

    @Override
    public void startPhase(PhaseConfig phase, SplittableRandom random) {
        DistributionSpec distribution;
        Map<String, DistributionSpec> byType;
        try {
            distribution = YcsbIvsParameters.distribution(phase);
            byType = YcsbIvsParameters.distributions(phase);
            ramped = RampedDistribution.of(phase);
        } catch (ConfigException e) {
            // validate() checked every phase before the run: reaching this is a caller bug.
            throw new IllegalStateException(e.getMessage(), e);
        }
        this.phase = phase;
        if (parameters.sections().present()) {
            section = sections.get(parameters.sections().of(phase).name());
            cells = section.cells(phase.index(), expectedInserts(phase));
        }
        LongGenerator phaseKeys = generator(distribution);
        for (int i = 0; i < procedures.size(); i++) {
            DistributionSpec own = byType.get(procedures.get(i).name());
            // A generator per type that has its own: "sequential" or "latest" state is then that type's alone.
            keysByType[i] = own == null ? phaseKeys : generator(own);
            usesPhaseKeys[i] = own == null;
        }
        rampSlot = 0;
        context.startPhase(phaseKeys, random);
        context.section(section, cells);
    }

    /**
     * The chooser of a distribution in the current phase: YCSB's over recordcount without sections; with them,
     * one over the phase's cells, which the section's live keys map onto ({@link org.ivsbench.random.LiveKeys}).
     */
    private LongGenerator generator(DistributionSpec spec) {
        if (section == null) {
            return keys.keyGenerator(spec, phase);
        }
        return KeyDistributions.generator(spec, cells, null, keys.zetaCache());
    }

    /** The inserts a count phase is expected to make (count x the insert weight's share); 0 for a time phase. */
    private long expectedInserts(PhaseConfig p) {
        if (!p.endsByCount() || insertType < 0 || insertType >= p.weights().size()) {
            return 0;
        }
        double total = p.weights().stream().mapToDouble(Double::doubleValue).sum();
        return total > 0 ? Math.round(p.count() * p.weights().get(insertType) / total) : 0;
    }

    @Override
    public void rampTime(double elapsedSeconds) {
        if (ramped == null) {
            return;
        }
        long slot = RampedDistribution.slot(phase.ramp(), elapsedSeconds, phase.timeSeconds());
        if (slot == rampSlot) {
            return;
        }
        rampSlot = slot;
        double fraction = RampedDistribution.fraction(phase.ramp(), slot, phase.timeSeconds());
        LongGenerator moved = generator(ramped.at(fraction));
        for (int i = 0; i < keysByType.length; i++) {
            if (usesPhaseKeys[i]) {
                keysByType[i] = moved;
            }
        }
    }

    @Override
    protected OpResult run(int transactionTypeIndex, Session session) throws TargetException {
        context.session(session);
        context.keys(keysByType[transactionTypeIndex]);
        try {
            return procedures.get(transactionTypeIndex).run(context);
        } catch (NoLiveKey e) {
            return OpResult.skipped(NoLiveKey.REASON, 0);
        }
    }

    @Override
    protected void closed() {
        if (rangeRows.terminalClosed() && !rangeRows.summary().isEmpty()) {
            LOG.info(rangeRows.summary());
        }
    }
}
