package org.ivsbench.monitor;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns snapshots of the database's counters into per-interval {@code db.<Name>} columns: counters as the delta
 * since the previous call, gauges as their value now. The first call only sets the baseline (counters null).
 *
 * <p>A failed read never throws: the interval's cells are null, the failure is logged once, and the baseline
 * is dropped so the next delta is not silently two intervals long. A counter that went backwards (server
 * restart) is null for that interval, not negative.
 */
public final class DbCounterSampler {
    private static final Logger LOG = LoggerFactory.getLogger(DbCounterSampler.class);

    private final CounterSource source;
    private final CounterSelection selection;
    /** Column names seen so far, in order; kept so a failed interval still yields every column (empty). */
    private final Map<String, Boolean> known = new LinkedHashMap<>();

    private Map<String, Double> previous;
    private boolean failureLogged;

    public DbCounterSampler(CounterSource source, CounterSelection selection) {
        this.source = source;
        this.selection = selection;
    }

    public Map<String, Double> sample() {
        Map<String, Double> now;
        try {
            now = selected(source.snapshot());
            if (failureLogged) {
                LOG.info("database counters readable again");
                failureLogged = false;
            }
        } catch (Exception | LinkageError e) {
            if (!failureLogged) {
                LOG.warn(
                        "cannot read database counters, their monitor cells stay empty until they can: {}",
                        e.toString());
                failureLogged = true;
            }
            previous = null;
            Map<String, Double> empty = new LinkedHashMap<>();
            known.keySet().forEach(name -> empty.put("db." + name, null));
            return empty;
        }
        Map<String, Double> out = new LinkedHashMap<>();
        for (Map.Entry<String, Double> e : now.entrySet()) {
            String name = e.getKey();
            boolean gauge = known.computeIfAbsent(name, source::isGauge);
            Double value = e.getValue();
            if (gauge) {
                out.put("db." + name, value);
            } else {
                Double before = previous == null ? null : previous.get(name);
                double delta = before == null || value == null ? Double.NaN : value - before;
                out.put("db." + name, Double.isNaN(delta) || delta < 0 ? null : delta);
            }
        }
        for (String name : known.keySet()) {
            out.putIfAbsent("db." + name, null);
        }
        previous = now;
        return out;
    }

    /** Sorted by name so the columns of two runs line up whatever order the server reports them in. */
    private Map<String, Double> selected(Map<String, Double> snapshot) {
        Map<String, Double> m = new TreeMap<>();
        if (snapshot != null) {
            for (Map.Entry<String, Double> e : snapshot.entrySet()) {
                if (e.getKey() != null && selection.includes(e.getKey())) {
                    m.put(e.getKey(), e.getValue());
                }
            }
        }
        return m;
    }
}
