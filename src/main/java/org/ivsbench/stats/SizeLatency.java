package org.ivsbench.stats;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicReferenceArray;

import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * One phase's response times by the size of the value each operation touched (latency_by_size.csv): per
 * transaction type, one histogram per log2 size bucket plus one for operations of unknown size. Bucket 0 holds
 * size 0 and bucket {@code k >= 1} holds [2^(k-1), 2^k) bytes - the buckets of value_sizes.csv. A bucket's
 * histogram is made when its first operation arrives, so memory is bounded by types x 65 histograms whatever the
 * run's length, and recording allocates nothing after that: the bucket index is one leading-zero count.
 *
 * <p>Histograms keep 2 significant digits (within 1 %): a size figure needs the shape, and 65 buckets of
 * 3-digit histograms per type would hold megabytes for a phase.
 */
public final class SizeLatency {
    /** Size buckets: 0 for size 0, then one per bit length of the size (1..63). */
    static final int SIZE_BUCKETS = 64;
    /** The slot of operations whose size is not known. */
    static final int UNKNOWN = SIZE_BUCKETS;

    private static final int SLOTS = SIZE_BUCKETS + 1;
    private static final int DIGITS = 2;

    private final List<String> types;
    /** [type * SLOTS + slot], microseconds from the intended start; null until the slot's first operation. */
    private final AtomicReferenceArray<Histogram> histograms;

    public SizeLatency(List<String> types) {
        this.types = List.copyOf(types);
        this.histograms = new AtomicReferenceArray<>(this.types.size() * SLOTS);
    }

    /** The bucket of {@code bytes}: 0 for 0, else its bit length; {@link #UNKNOWN} for a negative size. */
    static int bucket(long bytes) {
        return bytes < 0 ? UNKNOWN : Long.SIZE - Long.numberOfLeadingZeros(bytes);
    }

    /** The smallest size in {@code bucket}. */
    static long low(int bucket) {
        return bucket == 0 ? 0 : 1L << (bucket - 1);
    }

    /** The exclusive upper bound of {@code bucket} (the last bucket's is Long.MAX_VALUE, inclusive). */
    static long high(int bucket) {
        return bucket == 0 ? 1 : bucket == SIZE_BUCKETS - 1 ? Long.MAX_VALUE : 1L << bucket;
    }

    /** Records one measured operation of {@code type}: its size in bytes (negative: unknown) and response time. */
    public void record(int type, long sizeBytes, long responseMicros) {
        int i = type * SLOTS + bucket(sizeBytes);
        Histogram h = histograms.get(i);
        if (h == null) {
            h = create(i);
        }
        h.recordValue(responseMicros);
    }

    private Histogram create(int i) {
        Histogram made = new ConcurrentHistogram(DIGITS);
        Histogram there = histograms.compareAndExchange(i, null, made);
        return there == null ? made : there;
    }

    /** Adds every response time {@code other} holds (of the same types) to this one's buckets. */
    void add(SizeLatency other) {
        if (!other.types.equals(types)) {
            throw new IllegalArgumentException("other types: " + other.types + " vs " + types);
        }
        for (int i = 0; i < histograms.length(); i++) {
            Histogram h = other.histograms.get(i);
            if (h != null) {
                Histogram mine = histograms.get(i);
                (mine == null ? create(i) : mine).add(h.copy());
            }
        }
    }

    /**
     * The non-empty buckets so far: by type in config order, sizes ascending, the unknown-size row last. Safe
     * while operations are recorded (each histogram is copied consistently).
     */
    public List<Row> rows() {
        List<Row> rows = new ArrayList<>();
        for (int t = 0; t < types.size(); t++) {
            for (int b = 0; b < SLOTS; b++) {
                Histogram h = histograms.get(t * SLOTS + b);
                if (h == null) {
                    continue;
                }
                Histogram copy = h.copy();
                if (copy.getTotalCount() == 0) {
                    continue;
                }
                boolean known = b != UNKNOWN;
                rows.add(new Row(
                        types.get(t),
                        known ? low(b) : null,
                        known ? high(b) : null,
                        copy.getTotalCount(),
                        copy.getMean(),
                        copy.getValueAtPercentile(50),
                        copy.getValueAtPercentile(90),
                        copy.getValueAtPercentile(99),
                        copy.getMaxValue()));
            }
        }
        return rows;
    }

    /**
     * One size bucket of one transaction type: {@code bucketLow} inclusive, {@code bucketHigh} exclusive (bytes;
     * both null for operations of unknown size), latencies in microseconds.
     */
    public record Row(
            String type,
            Long bucketLow,
            Long bucketHigh,
            long count,
            double avgUs,
            long p50Us,
            long p90Us,
            long p99Us,
            long maxUs) {

        /** The CSV columns after the row's key: the order of {@link #CSV_HEADER}. */
        public static final String CSV_HEADER =
                "type,bucket_lo,bucket_hi,count,lat_avg_us,lat_p50_us,lat_p90_us,lat_p99_us,lat_max_us";

        /** The row as {@link #CSV_HEADER}'s cells (the type is a transaction type name: no comma, no quote). */
        public String csv() {
            return String.join(
                    ",",
                    type,
                    bucketLow == null ? "" : bucketLow.toString(),
                    bucketHigh == null ? "" : bucketHigh.toString(),
                    Long.toString(count),
                    String.format(Locale.ROOT, "%.3f", avgUs),
                    Long.toString(p50Us),
                    Long.toString(p90Us),
                    Long.toString(p99Us),
                    Long.toString(maxUs));
        }
    }
}
