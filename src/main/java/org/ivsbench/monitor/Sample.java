package org.ivsbench.monitor;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One monitor interval: {@code timeMs} is the interval start (epoch ms), {@code intervalMs} its nominal length,
 * {@code metrics} the column name -> value map in column order. A null value is a metric that exists but could
 * not be measured in this interval (written as an empty cell).
 */
public record Sample(long timeMs, long intervalMs, Map<String, Double> metrics) {
    public Sample {
        // Copied so a sampler can reuse its own map and the column order stays the order of insertion.
        metrics = Collections.unmodifiableMap(new LinkedHashMap<>(metrics));
    }
}
