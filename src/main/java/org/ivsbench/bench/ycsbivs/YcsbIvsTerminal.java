package org.ivsbench.bench.ycsbivs;

import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.BooleanSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.ivsbench.bench.Terminal;
import org.ivsbench.bench.ycsbivs.procedures.Procedure;
import org.ivsbench.bench.ycsbivs.procedures.ProcedureContext;
import org.ivsbench.bench.ycsbivs.procedures.RangeRows;
import org.ivsbench.config.ConfigException;
import org.ivsbench.config.PhaseConfig;
import org.ivsbench.db.ReconnectingSession;
import org.ivsbench.db.Session;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;
import org.ivsbench.op.OpResult;
import org.ivsbench.random.DistributionSpec;
import org.ivsbench.random.LongGenerator;

/**
 * One ycsbivs terminal: its own session, procedures aligned with the config's transaction types, and the
 * current phase's key generator and random stream.
 *
 * <p>Failures become outcomes with a fixed reason; the driver's message (which may hold a key) goes to
 * the log, a few times per terminal. After a lost connection the session is reopened: with
 * reconnectOnConnectionFailure by {@link ReconnectingSession}, whose wait for the server (backoff until a
 * deadline) happens in {@link #beforeOperation()}, outside the service time; otherwise with one immediate
 * attempt per failed operation, so a short outage does not silence the terminal for the rest of the run.
 */
final class YcsbIvsTerminal implements Terminal {
    private static final Logger LOG = LoggerFactory.getLogger(YcsbIvsTerminal.class);
    private static final int LOGGED_FAILURES = 5;

    private final int id;
    private final Target target;
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

    private int loggedFailures;

    YcsbIvsTerminal(
            int id,
            Target target,
            Session session,
            YcsbIvsParameters parameters,
            List<Procedure> procedures,
            SharedKeys keys,
            RangeRows rangeRows) {
        this.id = id;
        this.target = target;
        this.procedures = List.copyOf(procedures);
        this.keys = keys;
        this.keysByType = new LongGenerator[procedures.size()];
        this.usesPhaseKeys = new boolean[procedures.size()];
        this.rangeRows = rangeRows;
        this.context = new ProcedureContext(parameters, keys.insertCounter(), session, rangeRows);
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
    public boolean beforeOperation(BooleanSupplier stillWanted) {
        if (context.session() instanceof ReconnectingSession reconnecting && reconnecting.disconnected()) {
            try {
                return reconnecting.awaitConnection(stillWanted);
            } catch (TargetException e) {
                logFailure(null, e); // gave up for now: the operation fails as connection lost
            }
        }
        return true;
    }

    @Override
    public OpResult execute(int transactionTypeIndex) {
        Procedure procedure = procedures.get(transactionTypeIndex);
        try {
            if (context.session() == null) {
                context.session(target.openSession()); // a previous reopen failed: try again
            }
            context.keys(keysByType[transactionTypeIndex]);
            return procedure.run(context);
        } catch (TargetException e) {
            logFailure(procedure, e);
            if (e.connectionLost()) {
                // A reconnecting session recovers by itself on its next operation; replacing it with a
                // plain one would silently turn reconnection off for the rest of the run.
                if (!(context.session() instanceof ReconnectingSession)) {
                    reopen();
                }
                return OpResult.error(ReconnectingSession.CONNECTION_LOST);
            }
            return OpResult.error("database error");
        }
    }

    private void reopen() {
        Session old = context.session();
        context.session(null);
        if (old != null) {
            old.close();
        }
        try {
            context.session(target.openSession());
        } catch (TargetException e) {
            logFailure(null, e); // the next operation tries again
        }
    }

    private void logFailure(Procedure procedure, TargetException e) {
        if (loggedFailures < LOGGED_FAILURES) {
            loggedFailures++;
            LOG.warn(
                    "terminal {}: {} failed: {}{}",
                    id,
                    procedure == null ? "reconnect" : procedure.name(),
                    e.getMessage(),
                    loggedFailures == LOGGED_FAILURES ? " (further failures not logged)" : "");
        }
    }

    @Override
    public void close() {
        Session session = context.session();
        if (session != null) {
            session.close();
        }
        if (rangeRows.terminalClosed() && !rangeRows.summary().isEmpty()) {
            LOG.info(rangeRows.summary());
        }
    }
}
