package org.ivsbench.bench.ycsb;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;

import org.ivsbench.bench.ChunkedLoader;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.db.Record;
import org.ivsbench.random.RandomValues;

/**
 * Loads ycsb_key 0 .. recordcount - 1, as BenchBase's loader numbers them: every field a fresh {@code fieldSize}
 * character value. Values come from the stream "ycsb-loader" of each chunk ({@link ChunkedLoader}).
 */
final class YcsbLoader extends ChunkedLoader {
    private final YcsbParameters parameters;

    YcsbLoader(BenchmarkConfig config, YcsbParameters parameters) {
        super(config, YcsbParameters.TABLE, parameters.recordCount(), "ycsb-loader");
        this.parameters = parameters;
    }

    @Override
    protected Record record(long key, SplittableRandom random) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String field : parameters.fieldNames()) {
            values.put(field, RandomValues.ascii(random, parameters.fieldSize()));
        }
        return new Record(Long.toString(key), values);
    }
}
