package org.ivsbench.bench.ycsb;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import org.ivsbench.bench.SessionTerminal;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.PhaseConfig;
import org.ivsbench.db.Session;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;
import org.ivsbench.op.OpResult;
import org.ivsbench.random.LongGenerator;
import org.ivsbench.random.RandomValues;

/**
 * One ycsb terminal: the phase's random stream, from which every key, scan length and value is drawn (insert keys
 * excepted: they come from the run's shared counter). Its session and failures are the skeleton's
 * ({@link SessionTerminal}).
 */
final class YcsbTerminal extends SessionTerminal {
    private final List<YcsbProcedure> procedures;
    private final Context context;

    YcsbTerminal(
            BenchmarkConfig config,
            Target target,
            int id,
            YcsbParameters parameters,
            List<YcsbProcedure> procedures,
            YcsbKeys keys)
            throws TargetException {
        super(config, target, id);
        this.procedures = List.copyOf(procedures);
        this.context = new Context(parameters, keys);
    }

    @Override
    public void startPhase(PhaseConfig phase, SplittableRandom random) {
        context.random = random;
        context.existing = context.keys.existing();
        context.scanLengths = context.keys.scanLengths();
    }

    @Override
    protected OpResult run(int transactionTypeIndex, Session session) throws TargetException {
        context.session = session;
        return procedures.get(transactionTypeIndex).run(context);
    }

    /** What a procedure draws from: the session, the run's keys and the phase's stream. One terminal thread only. */
    static final class Context {
        private final YcsbParameters parameters;
        private final YcsbKeys keys;
        /** The terminal's session for the operation that runs now. */
        private Session session;

        private SplittableRandom random;
        private LongGenerator existing;
        private LongGenerator scanLengths;

        Context(YcsbParameters parameters, YcsbKeys keys) {
            this.parameters = parameters;
            this.keys = keys;
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
