package org.ivsbench.bench.ycsbivs;

import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.ivsbench.bench.SessionTerminal;
import org.ivsbench.bench.ycsbivs.procedures.Procedure;
import org.ivsbench.bench.ycsbivs.procedures.ProcedureContext;
import org.ivsbench.bench.ycsbivs.procedures.RangeRows;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.ConfigException;
import org.ivsbench.config.PhaseConfig;
import org.ivsbench.db.Session;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;
import org.ivsbench.op.OpResult;
import org.ivsbench.random.DistributionSpec;
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

    YcsbIvsTerminal(
            BenchmarkConfig config,
            Target target,
            int id,
            YcsbIvsParameters parameters,
            List<Procedure> procedures,
            SharedKeys keys,
            RangeRows rangeRows)
            throws TargetException {
        super(config, target, id);
        this.procedures = List.copyOf(procedures);
        this.keys = keys;
        this.keysByType = new LongGenerator[procedures.size()];
        this.usesPhaseKeys = new boolean[procedures.size()];
        this.rangeRows = rangeRows;
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
        LongGenerator phaseKeys = keys.keyGenerator(distribution, phase);
        for (int i = 0; i < procedures.size(); i++) {
            DistributionSpec own = byType.get(procedures.get(i).name());
            // A generator per type that has its own: "sequential" or "latest" state is then that type's alone.
            keysByType[i] = own == null ? phaseKeys : keys.keyGenerator(own, phase);
            usesPhaseKeys[i] = own == null;
        }
        this.phase = phase;
        rampSlot = 0;
        context.startPhase(phaseKeys, random);
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
        LongGenerator moved = keys.keyGenerator(ramped.at(fraction), phase);
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
        return procedures.get(transactionTypeIndex).run(context);
    }

    @Override
    protected void closed() {
        if (rangeRows.terminalClosed() && !rangeRows.summary().isEmpty()) {
            LOG.info(rangeRows.summary());
        }
    }
}
