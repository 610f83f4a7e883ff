package org.ivsbench.monitor;

import java.util.Map;

/**
 * Measures the host over the time since its previous call. The first call only establishes the baseline: its
 * rates are null. Implementations are used by one thread at a time.
 */
public interface HostSampler {
    Map<String, Double> sample();
}
