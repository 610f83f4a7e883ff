package org.ivsbench.db;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The "quiet" decision on a sequence of {@link Quiescence.Probe} readings, oldest first: quiet when every gauge of
 * the latest reading is at or below its limit, or is a {@link QuietGauge#quietWhenSteady} gauge whose value was the
 * same in the last {@link #STEADY_READINGS} readings. A falling value is work being digested; a rising one is
 * work arriving: neither is quiet. Pure logic, no clock: the caller decides how often to read and for how long.
 */
public final class QuietRule {
    /** Readings a steady gauge must keep the same value over (two intervals of the caller's polling). */
    public static final int STEADY_READINGS = 3;

    private QuietRule() {}

    /** True when the server is quiet after {@code readings} (false for none). */
    public static boolean quiet(List<List<QuietGauge>> readings) {
        return !readings.isEmpty() && busy(readings).isEmpty();
    }

    /** The gauges of the latest reading that are not quiet, as {@code name value} (empty when quiet). */
    public static List<String> busy(List<List<QuietGauge>> readings) {
        List<String> busy = new ArrayList<>();
        if (readings.isEmpty()) {
            return busy;
        }
        for (QuietGauge g : readings.get(readings.size() - 1)) {
            if (g.value() <= g.quietAtOrBelow() || (g.quietWhenSteady() && steady(readings, g))) {
                continue;
            }
            busy.add(g.name() + " " + format(g.value()));
        }
        return busy;
    }

    /** True when {@code gauge} has the same value in each of the last {@link #STEADY_READINGS} readings. */
    private static boolean steady(List<List<QuietGauge>> readings, QuietGauge gauge) {
        if (readings.size() < STEADY_READINGS) {
            return false;
        }
        for (List<QuietGauge> r : readings.subList(readings.size() - STEADY_READINGS, readings.size())) {
            QuietGauge same = r.stream()
                    .filter(g -> g.name().equals(gauge.name()))
                    .findFirst()
                    .orElse(null);
            if (same == null || same.value() != gauge.value()) {
                return false;
            }
        }
        return true;
    }

    private static String format(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%.3f", v);
    }
}
