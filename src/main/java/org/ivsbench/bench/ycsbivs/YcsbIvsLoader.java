package org.ivsbench.bench.ycsbivs;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import org.ivsbench.bench.ChunkedLoader;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.db.Record;
import org.ivsbench.random.LengthDistribution;
import org.ivsbench.random.RandomValues;

/**
 * Loads keynums 0 .. recordcount-1 over the loader threads ({@link ChunkedLoader}): values from the stream "loader"
 * of each chunk, drawn in keynum and field order, each of a length by fieldlengthdistribution. A load with a
 * requested sortedness is {@link SortedLoad}'s.
 */
final class YcsbIvsLoader extends ChunkedLoader {
    private final YcsbIvsParameters parameters;
    private final List<String> fields;

    YcsbIvsLoader(BenchmarkConfig config, YcsbIvsParameters parameters) {
        super(config, parameters.table(), parameters.recordCount(), "loader");
        this.parameters = parameters;
        this.fields = parameters.fieldNames();
    }

    @Override
    protected Record record(long keynum, SplittableRandom random) {
        return record(parameters, fields, keynum, random);
    }

    /** A loaded record: its key by the key shape, then its fields' values in field order from the stream. */
    static Record record(YcsbIvsParameters parameters, List<String> fields, long keynum, SplittableRandom random) {
        return record(parameters, fields, parameters.keyName(keynum), random);
    }

    /** A loaded record under {@code key}: its fields' values in field order from the stream. */
    static Record record(YcsbIvsParameters parameters, List<String> fields, String key, SplittableRandom random) {
        LengthDistribution lengths = parameters.fieldLengths();
        Map<String, String> values = new LinkedHashMap<>();
        for (String field : fields) {
            // A constant length draws nothing, so constant loads keep their streams.
            values.put(field, RandomValues.ascii(random, lengths.next(random)));
        }
        return new Record(key, values);
    }
}
