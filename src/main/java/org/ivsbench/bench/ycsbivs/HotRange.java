package org.ivsbench.bench.ycsbivs;

import java.util.Set;
import java.util.TreeSet;
import java.util.function.LongPredicate;

import org.ivsbench.config.ConfigException;
import org.ivsbench.config.LeafView;
import org.ivsbench.random.KeyShape;

/**
 * A section's {@code <hotrange>} (Tectonic's Tec-7, "90 % of point queries on hot keys"): the first
 * {@code prefixes} prefixes of the section's key shape (in key order: a range of keys) get {@code share} of the
 * operations that choose a live or gone key, whatever share of the keys they hold - that share stays the
 * prefix distribution's, for loaded and inserted keys alike. Within the hot range and within the rest, the
 * operation's distribution chooses as it does over all live keys ({@link org.ivsbench.random.LiveKeys}).
 *
 * @param prefixes how many prefixes, from prefix index 0, are hot
 * @param share    the share of key choices that go to the hot range, in [0, 1]
 */
public record HotRange(long prefixes, double share) {
    static final String NAME = "hotrange";
    private static final Set<String> CHILDREN = new TreeSet<>(Set.of("prefixes", "share"));

    /** Whether a key number of {@code shape} is in the hot range. */
    LongPredicate hotIn(KeyShape shape) {
        return n -> shape.prefixIndex(n) < prefixes;
    }

    /** The {@code <hotrange>} of a section's view, or null; {@code shape} is the section's key shape. */
    static HotRange parse(LeafView section, KeyShape shape) throws ConfigException {
        LeafView range = section.group(NAME, CHILDREN, "<hotrange><prefixes>1</prefixes><share>0.9</share></hotrange>");
        if (range.isEmpty()) {
            return null;
        }
        String p = range.required("prefixes", "how many prefixes, from the first in key order, are hot");
        if (shape.prefixCount() < 2) {
            throw range.error(
                    "prefixes",
                    "'" + p + "' needs a section whose keys have at least two prefixes (<keys><prefix>, e.g."
                            + " range:10); a key space of one prefix has no range to set apart");
        }
        long prefixes = range.longBetween("prefixes", 1, 1, shape.prefixCount() - 1);
        String s = range.required("share", "the share of the key choices that go to the hot prefixes, in [0, 1]");
        double share = range.decimal("share", 0);
        if (!(share >= 0 && share <= 1)) {
            throw range.error("share", "'" + s + "' must be in [0, 1]");
        }
        return new HotRange(prefixes, share);
    }
}
