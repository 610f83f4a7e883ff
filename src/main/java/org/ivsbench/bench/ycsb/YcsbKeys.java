package org.ivsbench.bench.ycsb;

import org.ivsbench.config.Shard;
import org.ivsbench.random.CounterGenerator;
import org.ivsbench.random.LongGenerator;
import org.ivsbench.random.ZetaCache;
import org.ivsbench.random.ZipfianGenerator;

/**
 * The key state the terminals of one run share, as BenchBase's YCSB keeps it: existing keys are chosen by an
 * (unscrambled) Zipfian over 0 .. recordcount - 1, so the smallest keys are the hottest; inserts take the next
 * number of one counter that starts at recordcount. The zeta normalisation is computed once and shared.
 */
final class YcsbKeys {
    private final YcsbParameters parameters;
    private final CounterGenerator inserts;
    private final ZetaCache zeta = new ZetaCache();

    /** With {@code --shard i/n}, this driver inserts key numbers recordcount + i, + i + n, ... (disjoint). */
    YcsbKeys(YcsbParameters parameters, Shard shard) {
        this.parameters = parameters;
        this.inserts = new CounterGenerator(parameters.recordCount(), shard.index(), shard.count());
    }

    CounterGenerator inserts() {
        return inserts;
    }

    /** A fresh chooser of existing keys (generators may keep per-terminal state). */
    LongGenerator existing() {
        return new ZipfianGenerator(0, parameters.recordCount() - 1, parameters.skewFactor(), zeta);
    }

    /** A fresh chooser of scan lengths, 1 .. MAX_SCAN, short scans the likeliest. */
    LongGenerator scanLengths() {
        return new ZipfianGenerator(1, YcsbParameters.MAX_SCAN, parameters.skewFactor(), zeta);
    }
}
