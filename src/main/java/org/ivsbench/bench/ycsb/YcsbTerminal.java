package org.ivsbench.bench.ycsb;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.BooleanSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.ivsbench.bench.Terminal;
import org.ivsbench.config.PhaseConfig;
import org.ivsbench.db.ReconnectingSession;
import org.ivsbench.db.Session;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;
import org.ivsbench.op.OpResult;
import org.ivsbench.random.LongGenerator;
import org.ivsbench.random.RandomValues;

/**
 * One ycsb terminal: its own session and the phase's random stream, from which every key, scan length and value
 * is drawn (insert keys excepted: they come from the run's shared counter). Database failures become outcomes;
 * after a lost connection a plain session is reopened on the next operation, a reconnecting one recovers itself.
 */
final class YcsbTerminal implements Terminal {
    private static final Logger LOG = LoggerFactory.getLogger(YcsbTerminal.class);
    private static final int LOGGED_FAILURES = 5;

    private final int id;
    private final Target target;
    private final List<YcsbProcedure> procedures;
    private final Context context;
    private int loggedFailures;

    YcsbTerminal(
            int id,
            Target target,
            Session session,
            YcsbParameters parameters,
            List<YcsbProcedure> procedures,
            YcsbKeys keys) {
        this.id = id;
        this.target = target;
        this.procedures = List.copyOf(procedures);
        this.context = new Context(parameters, keys, session);
    }

    @Override
    public void startPhase(PhaseConfig phase, SplittableRandom random) {
        context.random = random;
        context.existing = context.keys.existing();
        context.scanLengths = context.keys.scanLengths();
    }

    @Override
    public boolean beforeOperation(BooleanSupplier stillWanted) {
        if (context.session instanceof ReconnectingSession reconnecting && reconnecting.disconnected()) {
            try {
                return reconnecting.awaitConnection(stillWanted);
            } catch (TargetException e) {
                logFailure(null, e);
            }
        }
        return true;
    }

    @Override
    public OpResult execute(int transactionTypeIndex) {
        YcsbProcedure procedure = procedures.get(transactionTypeIndex);
        try {
            if (context.session == null) {
                context.session = target.openSession();
            }
            return procedure.run(context);
        } catch (TargetException e) {
            logFailure(procedure, e);
            if (e.connectionLost()) {
                if (!(context.session instanceof ReconnectingSession)) {
                    Session old = context.session;
                    context.session = null; // reopened by the next operation
                    if (old != null) {
                        old.close();
                    }
                }
                return OpResult.error(ReconnectingSession.CONNECTION_LOST);
            }
            return OpResult.error("database error");
        }
    }

    private void logFailure(YcsbProcedure procedure, TargetException e) {
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
        if (context.session != null) {
            context.session.close();
        }
    }

    /** What a procedure draws from: the session, the run's keys and the phase's stream. One terminal thread only. */
    static final class Context {
        private final YcsbParameters parameters;
        private final YcsbKeys keys;
        private Session session;
        private SplittableRandom random;
        private LongGenerator existing;
        private LongGenerator scanLengths;

        Context(YcsbParameters parameters, YcsbKeys keys, Session session) {
            this.parameters = parameters;
            this.keys = keys;
            this.session = session;
        }

        Session session() {
            return session;
        }

        YcsbKeys keys() {
            return keys;
        }

        List<String> fields() {
            return parameters.fieldNames();
        }

        String existingKey() {
            return Long.toString(existing.next(random));
        }

        int scanLength() {
            return (int) scanLengths.next(random);
        }

        /** Fresh values for all ten fields, in field order (BenchBase's updates and inserts write every field). */
        Map<String, String> newValues() {
            Map<String, String> values = new LinkedHashMap<>();
            for (String field : parameters.fieldNames()) {
                values.put(field, RandomValues.ascii(random, parameters.fieldSize()));
            }
            return values;
        }
    }
}
