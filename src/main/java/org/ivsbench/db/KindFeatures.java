package org.ivsbench.db;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * What a {@link TargetKind} can do beyond the record operations every {@link Session} offers, known before a
 * target is opened (the config check refuses what the kind cannot do). Each feature is a promise the kind's
 * targets and sessions keep; the shared session contract test holds every registered kind to it.
 *
 * @param offered the features the kind has; an empty set is a kind with the record operations only
 */
public record KindFeatures(Set<Feature> offered) {

    /** One thing only some kinds can do. */
    public enum Feature {
        /** Sessions implement {@link ExtendMethod#SERVER}: one guarded append on the server. */
        SERVER_EXTEND,
        /**
         * Sessions implement {@link Session#deleteRange}: records are kept in key order, so a key range is a range
         * of the table, and the server deletes it itself (not the client record by record).
         */
        RANGE_DELETE,
        /**
         * Sessions implement {@link Session#scanBetween} and {@link Session#deleteBetween}: records are kept in key
         * order, so the records between two keys are a range of the table.
         */
        RANGE_BETWEEN,
        /** Targets offer {@link NativeSnapshot} (a copy with the server's own tools). */
        NATIVE_SNAPSHOT,
        /** Targets offer {@link DatabaseAdmin}, so an experiment can make fresh databases. */
        FRESH_DATABASES,
        /** Targets offer {@link Reorganization} (the platform's own table maintenance: mode main-maintained). */
        REORGANIZATION
    }

    public KindFeatures {
        offered = offered.isEmpty() ? Set.of() : Collections.unmodifiableSet(EnumSet.copyOf(offered));
    }

    /** A kind with exactly these features. */
    public static KindFeatures of(Feature... features) {
        return new KindFeatures(Set.of(features));
    }

    /** Whether the kind has {@code feature}. */
    public boolean has(Feature feature) {
        return offered.contains(feature);
    }
}
