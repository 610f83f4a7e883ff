package org.ivsbench.bench.kv;

import java.util.Map;
import java.util.SplittableRandom;

import org.ivsbench.bench.ChunkedLoader;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.ConfigException;
import org.ivsbench.db.Record;
import org.ivsbench.random.RandomValues;

/** kv's record shape: key {@code k<number>}, one value of {@code valuesize} characters from the chunk's stream. */
final class KvLoader extends ChunkedLoader {
    private final int valueSize;

    KvLoader(BenchmarkConfig config) {
        super(config, KvModule.TABLE, KvModule.records(config), "kv-loader");
        try {
            this.valueSize = KvModule.valueSize(config);
        } catch (ConfigException e) {
            throw new IllegalStateException("validate() accepted " + e.getMessage(), e);
        }
    }

    static String key(long number) {
        return "k" + number;
    }

    @Override
    protected Record record(long keynum, SplittableRandom random) {
        return new Record(key(keynum), Map.of(KvModule.FIELD, RandomValues.ascii(random, valueSize)));
    }
}
