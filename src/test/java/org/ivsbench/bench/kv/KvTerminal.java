package org.ivsbench.bench.kv;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import org.ivsbench.bench.SessionTerminal;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.ConfigException;
import org.ivsbench.config.PhaseConfig;
import org.ivsbench.db.Session;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;
import org.ivsbench.op.OpResult;
import org.ivsbench.random.RandomValues;

/** kv's operations: Get reads the value of a uniformly chosen key, Put overwrites it with a fresh one. */
final class KvTerminal extends SessionTerminal {
    private final List<String> types;
    private final long records;
    private final int valueSize;
    private SplittableRandom random;

    KvTerminal(BenchmarkConfig config, Target target, int id) throws TargetException {
        super(config, target, id);
        this.types = config.transactionTypeNames();
        this.records = KvModule.records(config);
        try {
            this.valueSize = KvModule.valueSize(config);
        } catch (ConfigException e) {
            throw new TargetException("invalid kv configuration: " + e.getMessage());
        }
    }

    @Override
    public void startPhase(PhaseConfig phase, SplittableRandom phaseRandom) {
        this.random = phaseRandom;
    }

    @Override
    protected OpResult run(int transactionTypeIndex, Session session) throws TargetException {
        String key = KvLoader.key(random.nextLong(records));
        if (types.get(transactionTypeIndex).equals("Get")) {
            Map<String, String> value = new HashMap<>();
            return session.read(KvModule.TABLE, key, List.of(KvModule.FIELD), value);
        }
        return session.update(KvModule.TABLE, key, Map.of(KvModule.FIELD, RandomValues.ascii(random, valueSize)));
    }
}
