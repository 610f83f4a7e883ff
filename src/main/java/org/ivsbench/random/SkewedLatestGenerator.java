package org.ivsbench.random;

import java.util.SplittableRandom;

/**
 * YCSB's "latest" distribution: the most recently inserted key is the most popular, popularity falling
 * off as a Zipfian with age. A draw is {@code max - zipfian rank over max items}, with max the insert
 * counter's last value at the time of the draw; as in YCSB the rank is below max, so key 0 is never
 * drawn.
 *
 * <p>Mutable, one per terminal; the counter is shared. When inserts raise the count, zeta is extended
 * incrementally (O(new keys), not O(all keys) per draw). Like YCSB, eta keeps using the item count
 * from construction while zeta follows the growing count: the tail shape drifts from a true Zipfian
 * as inserts accumulate (eta's numerator is about 8 % off once 10^4 records have doubled), and is kept
 * that way so that "latest" runs stay comparable with YCSB's.
 */
public final class SkewedLatestGenerator implements LongGenerator {
    private final CounterGenerator counter;
    private final double theta;
    private final long etaItems;
    private long countForZeta;
    private double zetan;
    private ZipfianGenerator.Shape shape;

    public SkewedLatestGenerator(CounterGenerator counter) {
        this(counter, null);
    }

    /** @param cache shares the initial O(n) zeta between terminals; may be null */
    public SkewedLatestGenerator(CounterGenerator counter, ZetaCache cache) {
        this.counter = counter;
        this.theta = ZipfianGenerator.ZIPFIAN_CONSTANT;
        long items = counter.lastValue();
        if (items < 0) {
            throw new IllegalArgumentException("latest needs at least one record; counter's last value is " + items);
        }
        this.countForZeta = items;
        this.zetan = cache == null ? Zeta.zeta(items, theta) : cache.zeta(items, theta);
        // With a single record (items = 0) eta would be NaN; it is never used then, but must not stay
        // NaN once inserts make it matter.
        this.etaItems = Math.max(1, items);
        this.shape = new ZipfianGenerator.Shape(theta, etaItems, zetan);
    }

    @Override
    public long next(SplittableRandom r) {
        long max = counter.lastValue();
        if (max > countForZeta) {
            zetan = Zeta.zeta(countForZeta, max, theta, zetan);
            countForZeta = max;
            shape = new ZipfianGenerator.Shape(theta, etaItems, zetan);
        }
        return max - shape.rank(r.nextDouble(), max);
    }
}
