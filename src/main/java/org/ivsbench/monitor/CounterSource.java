package org.ivsbench.monitor;

import java.util.Map;

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

    static CounterSource of(Target target) {
        return new CounterSource() {
            @Override
            public Map<String, Double> snapshot() throws Exception {
                return target.serverCounters();
            }

            @Override
            public boolean isGauge(String name) {
                return target.isGauge(name);
            }
        };
    }
}
