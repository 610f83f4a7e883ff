package org.ivsbench.monitor;

import java.util.Map;

import org.ivsbench.db.CounterKind;
import org.ivsbench.db.StatusCounters;
import org.ivsbench.db.Target;

/**
 * The database's own counters as the monitor needs them; a {@link Target} adapts with {@link #of(Target)}.
 * Kept separate from Target so the monitor can be tested, and run, without a benchmark target.
 */
public interface CounterSource {

    /** A snapshot of name -> value; counters are cumulative since server start. */
    Map<String, Double> snapshot() throws Exception;

    /** True when the name is a value to report as it is (pages free, threads connected), not a counter. */
    boolean isGauge(String name);

    /** The target's {@link StatusCounters}; a target without any yields empty snapshots. */
    static CounterSource of(Target target) {
        StatusCounters counters = target.capability(StatusCounters.class).orElse(null);
        return new CounterSource() {
            @Override
            public Map<String, Double> snapshot() throws Exception {
                return counters == null ? Map.of() : counters.snapshot();
            }

            @Override
            public boolean isGauge(String name) {
                return counters != null && counters.kindOf(name) == CounterKind.GAUGE;
            }
        };
    }
}
