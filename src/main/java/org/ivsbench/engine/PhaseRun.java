package org.ivsbench.engine;

import org.ivsbench.config.PhaseConfig;
import org.ivsbench.stats.PhaseStats;

/** A phase while it runs: its config, statistics and schedule. */
record PhaseRun(PhaseConfig config, PhaseStats stats, Schedule schedule) {}
