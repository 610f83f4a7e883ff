package org.ivsbench.random;

import java.util.List;
import java.util.SplittableRandom;

/**
 * How a key number becomes a key: YCSB's {@code "user" + n} (hashed or ordered, {@link KeyNames}) unless a
 * shape is configured, and then:
 *
 * <ul>
 *   <li>composite keys: a prefix of segments, e.g. {@code tenant3/user42/}, then the number. Which prefix
 *       a key number gets is drawn from the prefix distribution over the prefix indexes (0 .. prefixes-1 in
 *       key order, the last segment varying fastest), by a stream of its own per key number, so a key's name
 *       is a function of (seed, number) and per-prefix counts follow the distribution (hot prefixes);
 *   <li>ordered numbers are zero-padded to {@value #ORDERED_WIDTH} digits, so string order is number order
 *       within a prefix (YCSB's unpadded {@code user10} sorts before {@code user9}); hashed ones are YCSB's
 *       FNV-64 of the number;
 *   <li>variable length: a key shorter than its drawn length is padded with letters (after the number, so
 *       the order of ordered keys does not change); a key is never cut below its natural length.
 * </ul>
 *
 * <p>Immutable and safe to share between threads.
 */
public final class KeyShape {
    public static final int ORDERED_WIDTH = 10;
    /** The key column of every SQL target is VARCHAR(255). */
    public static final int LONGEST_KEY = 255;

    private static final String PLAIN_PREFIX = "user";
    private static final int CACHED_PREFIXES = 1 << 16;
    private static final long GOLDEN_GAMMA = 0x9E3779B97F4A7C15L;

    /** One composite key segment: its name and how many distinct values it takes. */
    public record Segment(String name, int count) {
        public Segment {
            if (count < 1) {
                throw new IllegalArgumentException("segment " + name + " needs a count >= 1");
            }
        }

        int width() {
            return Integer.toString(count - 1).length();
        }
    }

    private final boolean ordered;
    private final boolean plain;
    private final List<Segment> segments;
    private final long prefixCount;
    private final LongGenerator prefixChooser;
    private final LengthDistribution lengths;
    private final long prefixSeed;
    /** Leads every key (a section's "orders/"), counted in a drawn length; "" for none. */
    private final String lead;

    private final long seed;

    private final long lengthSeed;
    /** The prefix strings when there are few enough to keep (most configs): naming a key then builds none. */
    private final String[] prefixes;

    private KeyShape(
            boolean ordered,
            boolean plain,
            List<Segment> segments,
            LongGenerator prefixChooser,
            LengthDistribution lengths,
            long seed,
            String lead) {
        this.ordered = ordered;
        this.seed = seed;
        this.lead = lead;
        this.plain = plain;
        this.segments = List.copyOf(segments);
        long count = 1;
        for (Segment s : segments) {
            count = Math.multiplyExact(count, s.count());
        }
        this.prefixCount = count;
        this.prefixChooser = prefixChooser;
        this.lengths = lengths;
        this.prefixSeed = Seeds.forStream(seed, "keyprefix", 0).nextLong();
        this.lengthSeed = Seeds.forStream(seed, "keylength", 0).nextLong();
        this.prefixes = segments.isEmpty() || count > CACHED_PREFIXES ? null : new String[(int) count];
        for (int i = 0; prefixes != null && i < prefixes.length; i++) {
            prefixes[i] = buildPrefix(i);
        }
    }

    /** YCSB's keys, exactly as {@link KeyNames} makes them. */
    public static KeyShape plain(boolean ordered) {
        return new KeyShape(ordered, true, List.of(), null, null, 0, "");
    }

    /**
     * @param segments       the prefix segments, none for {@code "user"} keys
     * @param prefixChooser  picks a prefix index in [0, product of the segment counts); needs to depend on
     *                       the stream only (no insert counter); ignored without segments
     * @param lengths        the key length in bytes, or null for the natural length
     */
    public static KeyShape shaped(
            boolean ordered,
            List<Segment> segments,
            LongGenerator prefixChooser,
            LengthDistribution lengths,
            long seed) {
        return new KeyShape(ordered, false, segments, prefixChooser, lengths, seed, "");
    }

    /**
     * This shape with {@code text} leading every key and counted in its drawn length; without segments it takes
     * the place of "user" ({@code orders/0000000012}). A led key is always a shaped one: ordered numbers
     * zero-padded, so key order is number order.
     */
    public KeyShape led(String text) {
        return new KeyShape(ordered, false, segments, prefixChooser, lengths, seed, text);
    }

    public boolean ordered() {
        return ordered;
    }

    /**
     * True for a shaped or led key, whose ordered numbers are zero-padded (string order is number order within a
     * prefix); false for YCSB's plain keys, whose ordered numbers are not ({@code user10} sorts before {@code user9}).
     */
    public boolean padded() {
        return !plain;
    }

    public List<Segment> segments() {
        return segments;
    }

    /** The number of distinct prefixes: 1 without segments. */
    public long prefixCount() {
        return prefixCount;
    }

    public String key(long keynum) {
        if (plain) {
            return KeyNames.key(keynum, ordered);
        }
        StringBuilder key = new StringBuilder(48);
        key.append(lead);
        if (segments.isEmpty()) {
            key.append(lead.isEmpty() ? PLAIN_PREFIX : "");
        } else {
            key.append(prefix(prefixIndex(keynum)));
        }
        if (ordered) {
            String digits = Long.toString(keynum);
            key.append("0".repeat(Math.max(0, ORDERED_WIDTH - digits.length()))).append(digits);
        } else {
            key.append(Fnv.fnv64(keynum));
        }
        if (lengths != null) {
            SplittableRandom r = perKey(lengthSeed, keynum);
            int length = Math.min(LONGEST_KEY, lengths.next(r));
            while (key.length() < length) {
                key.append((char) ('a' + r.nextInt(26)));
            }
        }
        return key.toString();
    }

    /** The prefix index of a key number, 0 without segments. */
    public long prefixIndex(long keynum) {
        if (segments.isEmpty()) {
            return 0;
        }
        return prefixChooser.next(perKey(prefixSeed, keynum));
    }

    /** The prefix of an index, e.g. {@code tenant3/user42/}; zero-padded, so prefix order is index order. */
    public String prefix(long index) {
        return prefixes != null ? prefixes[(int) index] : buildPrefix(index);
    }

    private String buildPrefix(long index) {
        StringBuilder out = new StringBuilder();
        long rest = index;
        String[] parts = new String[segments.size()];
        for (int i = segments.size() - 1; i >= 0; i--) {
            Segment s = segments.get(i);
            String digits = Long.toString(rest % s.count());
            parts[i] = s.name() + "0".repeat(s.width() - digits.length()) + digits + "/";
            rest /= s.count();
        }
        for (String part : parts) {
            out.append(part);
        }
        return out.toString();
    }

    /** The longest natural key (before padding to a drawn length), for the key column's limit. */
    public int longestNaturalKey() {
        int number = ordered ? ORDERED_WIDTH : Long.toString(Long.MAX_VALUE).length();
        int prefix = segments.isEmpty()
                ? (lead.isEmpty() ? PLAIN_PREFIX.length() : 0)
                : prefix(0).length();
        return lead.length() + prefix + number;
    }

    /** A stream of its own per key number; the seed is mixed so neighbouring numbers' streams are unrelated. */
    private static SplittableRandom perKey(long base, long keynum) {
        long z = base + keynum * GOLDEN_GAMMA;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return new SplittableRandom(z ^ (z >>> 31));
    }
}
