package org.ivsbench.db;

/** How the monitor reports a server counter. */
public enum CounterKind {
    /** A running total: reported as its difference over each interval. */
    COUNTER,
    /** A level (pages free, threads connected): reported as it is. */
    GAUGE
}
