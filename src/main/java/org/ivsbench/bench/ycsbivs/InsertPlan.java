package org.ivsbench.bench.ycsbivs;

import java.util.Set;
import java.util.TreeSet;

import org.ivsbench.config.ConfigException;
import org.ivsbench.config.LeafView;
import org.ivsbench.random.LoadOrder;

/**
 * A section's {@code <insertorder>}: the K-L sortedness of the key order its first {@code inserts} inserts
 * arrive in during the run (Tectonic's near-sorted ingestion beside other operations). The order is generated
 * when the run starts, as the load's is ({@link LoadOrder}, about 17 bytes per planned insert while generating,
 * 4 bytes per planned insert kept); inserts past the plan take the following numbers in turn.
 *
 * @param sortedness the requested K, in [0, 1]
 * @param window     the largest intended displacement, in inserts
 * @param inserts    how many inserts the order covers
 */
public record InsertPlan(double sortedness, long window, int inserts) {
    static final String NAME = "insertorder";
    private static final Set<String> CHILDREN = new TreeSet<>(Set.of("sortedness", "displacement", "inserts"));

    /** The {@code <insertorder>} of a section's view, or null. */
    static InsertPlan parse(LeafView section, boolean ordered) throws ConfigException {
        LeafView plan = section.group(
                NAME, CHILDREN, "<insertorder><sortedness>0.1</sortedness><inserts>10000</inserts></insertorder>");
        if (plan.isEmpty()) {
            return null;
        }
        String k = plan.required("sortedness", "the K of the inserts' key order (0 sorted, 1 random)");
        double sortedness = plan.decimal("sortedness", 0);
        if (!(sortedness >= 0 && sortedness <= 1)) {
            throw plan.error("sortedness", "'" + k + "' must be in [0, 1] (0 sorted, 1 random)");
        }
        if (!ordered) {
            throw plan.error(
                    "sortedness",
                    "'" + k + "' needs the section's keyorder ordered: hashed keys arrive in no key order to begin"
                            + " with");
        }
        plan.required("inserts", "how many inserts the planned order covers");
        int inserts = (int) plan.longBetween("inserts", 1, 1, LoadOrder.LARGEST);
        long window = plan.longAtLeast("displacement", Math.max(1, inserts - 1), 1);
        return new InsertPlan(sortedness, window, inserts);
    }
}
