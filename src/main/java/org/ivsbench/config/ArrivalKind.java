package org.ivsbench.config;

/** How open-loop arrivals are spaced: evenly, or with exponential gaps (a Poisson process). */
public enum ArrivalKind {
    REGULAR,
    POISSON
}
