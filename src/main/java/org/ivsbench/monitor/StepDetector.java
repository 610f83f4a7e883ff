package org.ivsbench.monitor;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Online detection of a step in one phase's statistics windows (the ALL row: throughput, p99 response time,
 * missed arrivals). A window departs when one of its figures lies more than {@link #MAD_FACTOR} median absolute
 * deviations AND more than {@link #MIN_RELATIVE_CHANGE} of the level away from the median of the last
 * {@link #HISTORY} windows; a step is {@link #CONSECUTIVE} departing windows in a row. Median and MAD, not mean
 * and standard deviation, so that one outlier window neither triggers nor shifts the level; the relative floor
 * keeps a perfectly steady rate-limited run (MAD 0) from triggering on noise; two windows in a row keep a single
 * hiccup from triggering. At most one step per {@code minIntervalMs}, except that a step in throughput or missed
 * arrivals is not held back by a latency-only one ({@link StepBudget}). Pure logic, not thread-safe.
 */
public final class StepDetector {
    static final int HISTORY = 10;
    static final int MIN_HISTORY = 5;
    static final int CONSECUTIVE = 2;
    static final double MAD_FACTOR = 3.0;
    static final double MIN_RELATIVE_CHANGE = 0.30;

    /**
     * One closed window's ALL row: operations and missed arrivals per second; {@code p99Us} is NaN when nothing
     * completed in it.
     */
    public record Point(long timeMs, double throughput, double p99Us, double missed) {
        double get(int metric) {
            return switch (metric) {
                case 0 -> throughput;
                case 1 -> p99Us;
                default -> missed;
            };
        }
    }

    /**
     * A detected step: which figures departed from which level, and whether the service itself changed
     * (throughput or missed arrivals departed, not only the p99).
     */
    public record Step(String trigger, boolean service) {}

    private static final String[] NAMES = {"throughput", "p99_us", "missed"};

    private final StepBudget budget;
    private final Deque<Point> history = new ArrayDeque<>();
    private int departingInARow;

    public StepDetector(long minIntervalMs) {
        this.budget = new StepBudget(minIntervalMs);
    }

    /**
     * Adds the next window; returns a description of the step (which figures departed from which level) when
     * this window completes one, else empty.
     */
    public Optional<Step> add(Point p) {
        List<String> departures = history.size() >= MIN_HISTORY ? departures(p) : List.of();
        history.addLast(p);
        if (history.size() > HISTORY) {
            history.removeFirst();
        }
        departingInARow = departures.isEmpty() ? 0 : departingInARow + 1;
        if (departingInARow < CONSECUTIVE) {
            return Optional.empty();
        }
        boolean service = departures.stream().anyMatch(d -> !d.startsWith(NAMES[1] + " "));
        if (!budget.take(p.timeMs(), service)) {
            return Optional.empty();
        }
        departingInARow = 0;
        return Optional.of(new Step(String.join("; ", departures), service));
    }

    private List<String> departures(Point p) {
        List<String> out = new ArrayList<>();
        for (int m = 0; m < NAMES.length; m++) {
            double x = p.get(m);
            if (Double.isNaN(x)) {
                continue;
            }
            double[] level = levelOf(m);
            if (level == null) {
                continue;
            }
            double median = level[0];
            double mad = level[1];
            double change = Math.abs(x - median);
            // Missed arrivals usually sit at 0 (MAD 0): they count once they are a share of the throughput.
            double floor = m == 2 ? Math.max(Math.abs(median), throughputLevel()) : Math.abs(median);
            if (change > MAD_FACTOR * mad && change > MIN_RELATIVE_CHANGE * floor && change > 0) {
                out.add(String.format(
                        Locale.ROOT, "%s %.1f vs recent median %.1f (MAD %.1f)", NAMES[m], x, median, mad));
            }
        }
        return out;
    }

    private double throughputLevel() {
        double[] level = levelOf(0);
        return level == null ? 0 : level[0];
    }

    /** {median, MAD} of metric {@code m} over the history's defined values, or null when too few. */
    private double[] levelOf(int m) {
        double[] values = history.stream()
                .mapToDouble(h -> h.get(m))
                .filter(v -> !Double.isNaN(v))
                .toArray();
        if (values.length < MIN_HISTORY) {
            return null;
        }
        double median = median(values);
        double[] deviations =
                Arrays.stream(values).map(v -> Math.abs(v - median)).toArray();
        return new double[] {median, median(deviations)};
    }

    static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
    }
}
