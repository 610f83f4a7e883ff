package org.ivsbench.experiment;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

import org.HdrHistogram.Histogram;

import org.ivsbench.db.Record;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;

/**
 * Field value sizes of one table, gathered in one streaming pass ({@link Target#forEachRecord}): constant
 * memory whatever the table size. Percentiles are exact: the count of every distinct size is kept (extends grow
 * values in steps, so a table holds few distinct sizes). Past {@value #MAX_DISTINCT} distinct sizes the counts
 * are dropped and percentiles come from an HdrHistogram with 3 significant digits, clamped to the observed
 * min and max: then within 0.1% of the true value, never outside the sizes seen. Sizes are value lengths in
 * characters, which are bytes for the ASCII values benchmarks generate.
 */
public final class ValueSizeStats {
    static final int MAX_DISTINCT = 100_000;

    private final Histogram histogram = new Histogram(3);
    /** size -> count while there are at most {@link #MAX_DISTINCT} distinct sizes; null after. */
    private TreeMap<Long, Long> exact = new TreeMap<>();
    /** log2 bucket lower bound -> count; bucket 0 holds empty values, bucket 2^k holds [2^k, 2^(k+1)). */
    private final TreeMap<Long, Long> buckets = new TreeMap<>();

    private long records;
    private long values;
    private long totalBytes;
    private long min = Long.MAX_VALUE;
    private long max;
    /** Record-level sizes (a record's fields summed: the paper's "value" of Fig 1 is the record); lazily made. */
    private ValueSizeStats recordLevel;
    /** A field at least this long can no longer be extended (the workload's cap); 0: no cap known. */
    private long capAt;

    private long recordsAtCap;

    public static ValueSizeStats of(Target target, String table) throws TargetException {
        return of(target, table, 0);
    }

    /** As {@link #of(Target, String)}, also counting records with a field of at least {@code capAt} bytes. */
    public static ValueSizeStats of(Target target, String table, long capAt) throws TargetException {
        ValueSizeStats s = withCap(capAt);
        target.forEachRecord(table, s::add);
        return s;
    }

    /** An empty accumulator that counts records with a field of at least {@code capAt} bytes (0: none). */
    static ValueSizeStats withCap(long capAt) {
        ValueSizeStats s = new ValueSizeStats();
        s.capAt = capAt;
        return s;
    }

    void add(Record r) {
        records++;
        long recordBytes = 0;
        boolean atCap = false;
        for (String v : r.fields().values()) {
            long length = v == null ? 0 : v.length();
            addValue(length);
            recordBytes += length;
            atCap |= capAt > 0 && length >= capAt;
        }
        recordLevel().addValue(recordBytes);
        if (atCap) {
            recordsAtCap++;
        }
    }

    /** Sizes of whole records (the sum of each record's values); empty when built from values alone. */
    public ValueSizeStats recordSizes() {
        return recordLevel();
    }

    private ValueSizeStats recordLevel() {
        if (recordLevel == null) {
            recordLevel = new ValueSizeStats();
        }
        return recordLevel;
    }

    /** Records with a field the workload's cap stops from growing (0 when no cap was given). */
    public long recordsAtCap() {
        return recordsAtCap;
    }

    void addValue(long length) {
        values++;
        totalBytes += length;
        min = Math.min(min, length);
        max = Math.max(max, length);
        histogram.recordValue(length);
        if (exact != null) {
            exact.merge(length, 1L, Long::sum);
            if (exact.size() > MAX_DISTINCT) {
                exact = null;
            }
        }
        buckets.merge(bucketLow(length), 1L, Long::sum);
    }

    /** The lower bound of the log2 bucket holding {@code length}: 0 for 0, else the largest 2^k <= length. */
    static long bucketLow(long length) {
        return length == 0 ? 0 : Long.highestOneBit(length);
    }

    /** The exclusive upper bound of the bucket starting at {@code low}. */
    static long bucketHigh(long low) {
        return low == 0 ? 1 : low * 2;
    }

    public long records() {
        return records;
    }

    public long values() {
        return values;
    }

    public long totalBytes() {
        return totalBytes;
    }

    public long min() {
        return values == 0 ? 0 : min;
    }

    public long max() {
        return max;
    }

    public double average() {
        return values == 0 ? 0 : (double) totalBytes / values;
    }

    public long p50() {
        return percentile(50);
    }

    public long p99() {
        return percentile(99);
    }

    /** Whether {@link #p50()} and {@link #p99()} are exact (else within 0.1%). */
    public boolean exactPercentiles() {
        return exact != null;
    }

    /**
     * The smallest size that at least {@code percent}% of the values do not exceed (the ceil(percent% x n)-th
     * smallest value, as HdrHistogram ranks).
     */
    long percentile(double percent) {
        if (values == 0) {
            return 0;
        }
        if (exact == null) {
            return Math.max(min(), Math.min(max, histogram.getValueAtPercentile(percent)));
        }
        long rank = Math.max(1, (long) Math.ceil(percent / 100.0 * values));
        long seen = 0;
        for (Map.Entry<Long, Long> e : exact.entrySet()) {
            seen += e.getValue();
            if (seen >= rank) {
                return e.getKey();
            }
        }
        return max;
    }

    /** Non-empty log2 buckets in ascending order: lower bound -> count. */
    public Map<Long, Long> buckets() {
        return Collections.unmodifiableMap(buckets);
    }

    /** Stats of a table whose {@code records} records all have {@code fields} values of {@code length} bytes. */
    static ValueSizeStats uniform(long records, int fields, long length) {
        ValueSizeStats s = constant(records, records * fields, length);
        s.recordLevel = constant(records, records, fields * length);
        return s;
    }

    /** {@code values} values of {@code length} bytes in {@code records} records. */
    private static ValueSizeStats constant(long records, long values, long length) {
        ValueSizeStats s = new ValueSizeStats();
        s.records = records;
        s.values = values;
        s.totalBytes = values * length;
        s.min = length;
        s.max = length;
        s.histogram.recordValueWithCount(length, Math.max(1, values));
        s.exact.put(length, Math.max(1, values));
        s.buckets.put(bucketLow(length), values);
        return s;
    }
}
