package org.ivsbench.bench.ycsbivs;

import org.ivsbench.random.CounterGenerator;
import org.ivsbench.random.Distributions;
import org.ivsbench.random.LongGenerator;
import org.ivsbench.random.ZetaCache;

/**
 * The key state the terminals of one run share: the insert counter (starts at recordcount, so inserted keys
 * never collide with loaded ones) and the zeta cache of the key generators. Lives in the module instance,
 * which is per run.
 *
 * <p>The counter is handed to the key generators only when the run inserts: YCSB's "zipfian" is defined
 * differently with inserts (its item count tracks the insert counter), and without inserts it must
 * match CoreWorkload's hot set exactly.
 */
final class SharedKeys {
    private final long recordCount;
    private final boolean inserts;
    private final CounterGenerator insertCounter;
    private final ZetaCache zetaCache = new ZetaCache();

    SharedKeys(long recordCount, boolean inserts) {
        this.recordCount = recordCount;
        this.inserts = inserts;
        this.insertCounter = new CounterGenerator(recordCount);
    }

    CounterGenerator insertCounter() {
        return insertCounter;
    }

    LongGenerator keyGenerator(String distribution) {
        return Distributions.forName(distribution, recordCount, inserts ? insertCounter : null, zetaCache);
    }
}
