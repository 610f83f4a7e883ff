package org.ivsbench.engine;

/**
 * Engine settings that are not part of a phase. {@code maxBacklogSeconds}: an open-loop arrival that has
 * waited longer than this for a free terminal is counted as missed instead of started (so an overloaded
 * database is reported as missing its rate rather than queueing without bound).
 */
public record EngineOptions(double maxBacklogSeconds) {
    public static EngineOptions defaults() {
        return new EngineOptions(1.0);
    }
}
