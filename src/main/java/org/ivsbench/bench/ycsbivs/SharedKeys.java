package org.ivsbench.bench.ycsbivs;

import org.ivsbench.config.PhaseConfig;
import org.ivsbench.config.Shard;
import org.ivsbench.random.CounterGenerator;
import org.ivsbench.random.DistributionSpec;
import org.ivsbench.random.KeyDistributions;
import org.ivsbench.random.LongGenerator;
import org.ivsbench.random.ScrambledZipfianGenerator;
import org.ivsbench.random.ZetaCache;

/**
 * The key state the terminals of one run share: the insert counter (starts at recordcount, so inserted keys
 * never collide with loaded ones) and the zeta cache of the key generators. Lives in the module instance,
 * which is per run.
 *
 * <p>The counter is handed to the key generators only when the run inserts: YCSB's "zipfian" is defined
 * differently with inserts (its item count tracks the insert counter), and without inserts it must
 * match CoreWorkload's hot set exactly.
 *
 * <p>With inserts, "zipfian" is sized per phase as CoreWorkload sizes a run: recordcount plus twice the
 * phase's expected inserts (a count phase's count x its insert weight share). A time phase has no operation
 * count; it is sized as YCSB sizes a run without one (operationcount 0): no room for new keys beyond the one
 * extra item, so keys inserted in it are drawn only through the insert counter's redraw bound.
 */
final class SharedKeys {
    private final long recordCount;
    private final int insertType;
    private final CounterGenerator insertCounter;
    private final ZetaCache zetaCache = new ZetaCache();

    /** @param insertType the index of InsertRecord among the transaction types when the run inserts, else -1 */
    SharedKeys(long recordCount, int insertType) {
        this(recordCount, insertType, Shard.WHOLE);
    }

    /** With {@code --shard i/n}, this driver inserts key numbers recordcount + i, + i + n, ... (disjoint). */
    SharedKeys(long recordCount, int insertType, Shard shard) {
        this.recordCount = recordCount;
        this.insertType = insertType;
        this.insertCounter = new CounterGenerator(recordCount, shard.index(), shard.count());
    }

    ZetaCache zetaCache() {
        return zetaCache;
    }

    CounterGenerator insertCounter() {
        return insertCounter;
    }

    LongGenerator keyGenerator(DistributionSpec distribution, PhaseConfig phase) {
        if (insertType < 0) {
            return KeyDistributions.generator(distribution, recordCount, 0, null, zetaCache);
        }
        return KeyDistributions.generator(distribution, recordCount, expectedNewKeys(phase), insertCounter, zetaCache);
    }

    /** CoreWorkload's expectednewkeys for a phase (0 for a time phase, see the class comment). */
    long expectedNewKeys(PhaseConfig phase) {
        if (!phase.endsByCount() || insertType >= phase.weights().size()) {
            return 0;
        }
        double total = phase.weights().stream().mapToDouble(Double::doubleValue).sum();
        double share = total > 0 ? phase.weights().get(insertType) / total : 0;
        return ScrambledZipfianGenerator.expectedNewKeys(phase.count(), share);
    }
}
