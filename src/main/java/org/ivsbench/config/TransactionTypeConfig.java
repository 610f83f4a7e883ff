package org.ivsbench.config;

/** One transaction type in the mix; waits are in milliseconds, before and after each execution. */
public record TransactionTypeConfig(String name, long preExecutionWaitMs, long postExecutionWaitMs) {}
