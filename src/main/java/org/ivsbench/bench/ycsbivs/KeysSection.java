package org.ivsbench.bench.ycsbivs;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

import org.ivsbench.config.ConfigException;
import org.ivsbench.config.LeafView;
import org.ivsbench.random.DistributionSpec;
import org.ivsbench.random.KeyDistributions;
import org.ivsbench.random.KeyShape;
import org.ivsbench.random.KeyShape.Segment;
import org.ivsbench.random.LengthDistribution;
import org.ivsbench.random.LoadOrder;
import org.ivsbench.random.LongGenerator;
import org.ivsbench.random.ZetaCache;

/**
 * The {@code <keys>} section: key length, composite key prefixes with a distribution over them, and the
 * sortedness of the load's insert order (config/README.md). Without it keys are YCSB's, byte for byte.
 *
 * @param shape       how key numbers become keys
 * @param sortedness  the requested K of the load's insert order, or null to load in key-number order
 * @param window      the largest intended displacement of an entry, in entries (with a sortedness)
 */
public record KeysSection(KeyShape shape, Double sortedness, long window) {
    static final String NAME = "keys";
    static final Set<String> CHILDREN =
            new TreeSet<>(Set.of("length", "prefix", "prefixdistribution", "sortedness", "displacement"));

    private static final Pattern SEGMENT = Pattern.compile("([A-Za-z][A-Za-z0-9_]{0,31}):([0-9]{1,9})");
    private static final long MOST_PREFIXES = 1_000_000;
    /** Choosers that follow the insert counter would make a key's prefix change as the run inserts. */
    /** Key names are a function of the key number alone, as YCSB's FNV names are. */
    static final long KEY_SEED = 0;

    private static final Set<String> COUNTER_BOUND = Set.of("latest", "sequential", "exponential");

    static KeysSection plain(boolean ordered) {
        return new KeysSection(KeyShape.plain(ordered), null, 0);
    }

    /** The {@code <keys>} section of the benchmark parameters {@code p}; YCSB's keys when it is absent. */
    static KeysSection parse(LeafView p, boolean ordered, long recordCount) throws ConfigException {
        LeafView keys = p.group(NAME, CHILDREN, "<keys><sortedness>0.1</sortedness></keys>");
        if (keys.isEmpty()) {
            return plain(ordered);
        }
        for (String name : keys.names()) {
            if (name.contains("/")) {
                String leaf = name.substring(0, name.indexOf('/'));
                throw keys.error(
                        leaf,
                        "expected a value, found child element <"
                                + name.substring(leaf.length() + 1).split("/")[0] + ">");
            }
        }
        List<Segment> segments = segments(keys);
        LongGenerator chooser = prefixChooser(keys, segments);
        LengthDistribution lengths = lengths(keys);
        // Not randomSeed: experiments give each phase its own seed, and a number's key must be the loaded one.
        KeyShape shape = KeyShape.shaped(ordered, segments, chooser, lengths, KEY_SEED);
        if (shape.longestNaturalKey() > KeyShape.LONGEST_KEY) {
            throw keys.error(
                    "prefix",
                    "'" + keys.leaf("prefix") + "' makes keys longer than " + KeyShape.LONGEST_KEY
                            + " bytes; use shorter segment names");
        }
        Double sortedness = sortedness(keys, ordered, recordCount);
        long window = window(keys, sortedness, recordCount);
        return new KeysSection(shape, sortedness, window);
    }

    private static List<Segment> segments(LeafView keys) throws ConfigException {
        String text = keys.leaf("prefix");
        List<Segment> segments = new ArrayList<>();
        if (text == null) {
            return segments;
        }
        long product = 1;
        Set<String> names = new TreeSet<>();
        for (String item : text.split(",", -1)) {
            var m = SEGMENT.matcher(item.trim());
            if (!m.matches() || Integer.parseInt(m.group(2)) < 1) {
                throw keys.error(
                        "prefix",
                        "'" + text + "' must be segments name:count separated by commas (name a letter then letters,"
                                + " digits or '_'; count >= 1), e.g. tenant:10,user:100");
            }
            if (!names.add(m.group(1))) {
                throw keys.error("prefix", "'" + text + "' names segment " + m.group(1) + " twice");
            }
            int count = Integer.parseInt(m.group(2));
            product *= count;
            if (product > MOST_PREFIXES) {
                throw keys.error("prefix", "'" + text + "' gives more than " + MOST_PREFIXES + " distinct prefixes");
            }
            segments.add(new Segment(m.group(1), count));
        }
        return segments;
    }

    private static LongGenerator prefixChooser(LeafView keys, List<Segment> segments) throws ConfigException {
        String text = keys.leaf("prefixdistribution");
        String path = keys.childPath("prefixdistribution");
        if (text != null && segments.isEmpty()) {
            throw new ConfigException(path, "'" + text + "' needs <prefix> segments to choose from");
        }
        if (segments.isEmpty()) {
            return null;
        }
        DistributionSpec spec = YcsbIvsParameters.keyDistribution(path, text == null ? "uniform" : text);
        if (COUNTER_BOUND.contains(spec.name())) {
            throw new ConfigException(
                    path,
                    "'" + text + "' follows the insert counter; a key's prefix must not change with it: use uniform,"
                            + " zipfian, hotspot or a shape such as normal(mean=0.5, stddev=0.1)");
        }
        long prefixes = 1;
        for (Segment s : segments) {
            prefixes *= s.count();
        }
        return KeyDistributions.generator(spec, prefixes, null, new ZetaCache());
    }

    private static LengthDistribution lengths(LeafView keys) throws ConfigException {
        String text = keys.leaf("length");
        if (text == null) {
            return null;
        }
        String trimmed = text;
        try {
            if (trimmed.matches("[0-9]{1,9}")) {
                int length = Integer.parseInt(trimmed);
                if (length < 1 || length > KeyShape.LONGEST_KEY) {
                    throw new IllegalArgumentException("must be in [1, " + KeyShape.LONGEST_KEY + "]");
                }
                return LengthDistribution.parse("constant", length, 1, length, length);
            }
            if (trimmed.startsWith("constant")) {
                throw new IllegalArgumentException("give a constant length as a number, e.g. <length>32</length>");
            }
            return LengthDistribution.parse(trimmed, 1, 1, KeyShape.LONGEST_KEY, KeyShape.LONGEST_KEY);
        } catch (IllegalArgumentException e) {
            throw keys.error("length", "'" + text + "': " + e.getMessage());
        }
    }

    private static Double sortedness(LeafView keys, boolean ordered, long recordCount) throws ConfigException {
        String text = keys.leaf("sortedness");
        if (text == null) {
            return null;
        }
        double k = keys.decimal("sortedness", 0);
        if (!(k >= 0 && k <= 1)) {
            throw keys.error("sortedness", "'" + text + "' must be in [0, 1] (0 sorted, 1 random)");
        }
        if (!ordered) {
            throw keys.error(
                    "sortedness",
                    "'" + text + "' needs <keyorder>ordered</keyorder>: hashed keys are inserted in no key order"
                            + " to begin with");
        }
        if (recordCount > LoadOrder.LARGEST) {
            throw keys.error(
                    "sortedness",
                    "'" + text + "' needs recordcount <= " + LoadOrder.LARGEST
                            + " (the insert order is generated in memory), got " + recordCount);
        }
        return k;
    }

    private static long window(LeafView keys, Double sortedness, long recordCount) throws ConfigException {
        String text = keys.leaf("displacement");
        if (text == null) {
            return Math.max(1, recordCount - 1);
        }
        if (sortedness == null) {
            throw keys.error("displacement", "'" + text + "' needs a <sortedness> to apply to");
        }
        return keys.longAtLeast("displacement", 0, 1);
    }
}
