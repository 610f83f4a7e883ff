package org.ivsbench.engine;

import org.ivsbench.config.PhaseConfig;
import org.ivsbench.stats.PhaseStats;

/**
 * A phase while it runs: its config, statistics and schedule, and when its measured part starts on the engine
 * clock (where its ramp, if any, begins).
 */
record PhaseRun(PhaseConfig config, PhaseStats stats, Schedule schedule, long measuredStartNanos) {}
