package org.ivsbench.db;

import java.util.Map;

/** A target's capability: the server's own counters (SHOW GLOBAL STATUS, serverStatus ...), for the monitor. */
public interface StatusCounters {

    /** A snapshot of every numeric counter by name; running totals are cumulative since server start. */
    Map<String, Double> snapshot() throws TargetException;

    /** How {@code name} is reported: a difference per interval or as it is. */
    CounterKind kindOf(String name);
}
