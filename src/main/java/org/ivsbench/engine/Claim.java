package org.ivsbench.engine;

/**
 * Permission to run one operation: when it was meant to start (nanoseconds on the engine clock) and
 * whether it is measured (false during warmup).
 */
public record Claim(long intendedNanos, boolean measured) {}
