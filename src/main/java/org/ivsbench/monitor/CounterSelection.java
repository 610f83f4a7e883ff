package org.ivsbench.monitor;

import java.util.List;
import java.util.Set;

import org.ivsbench.db.TargetKind;

/**
 * Which database counters become {@code db.*} columns. A server can report hundreds of counters (MariaDB ~500);
 * {@link #defaults(TargetKind)} keeps the ones the database's kind chooses as explaining throughput steps, so
 * monitor.csv stays readable. {@link #ALL} keeps every numeric one.
 */
public record CounterSelection(boolean all, Set<String> names, List<String> prefixes) {

    public static final CounterSelection ALL = new CounterSelection(true, Set.of(), List.of());

    public CounterSelection {
        names = Set.copyOf(names);
        prefixes = List.copyOf(prefixes);
    }

    /** The kind's default counters and counter families. */
    public static CounterSelection defaults(TargetKind kind) {
        return new CounterSelection(false, kind.defaultCounters().keySet(), kind.defaultCounterPrefixes());
    }

    public boolean includes(String name) {
        if (all || names.contains(name)) {
            return true;
        }
        for (String p : prefixes) {
            if (name.startsWith(p)) {
                return true;
            }
        }
        return false;
    }
}
