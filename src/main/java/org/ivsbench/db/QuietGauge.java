package org.ivsbench.db;

/**
 * One reading of a background-work gauge ({@link Quiescence}): quiet at or below {@code quietAtOrBelow}, or,
 * when {@code quietWhenSteady}, once it stays unchanged over {@link QuietRule#STEADY_READINGS} readings (the
 * work that drains it has stopped, e.g. InnoDB's page cleaner leaves some dirty pages on an idle server).
 */
public record QuietGauge(String name, double value, double quietAtOrBelow, boolean quietWhenSteady) {

    /** A gauge that is quiet only at or below its limit. */
    public static QuietGauge atMost(String name, double value, double limit) {
        return new QuietGauge(name, value, limit, false);
    }

    /** A gauge that is quiet at or below its limit, or when it has stopped changing. */
    public static QuietGauge atMostOrSteady(String name, double value, double limit) {
        return new QuietGauge(name, value, limit, true);
    }
}
