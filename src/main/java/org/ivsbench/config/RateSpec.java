package org.ivsbench.config;

/**
 * A phase's rate: OPEN = a fixed total number of operations per second across all terminals (open loop,
 * latency from intended start); UNLIMITED = closed loop, back to back; DISABLED = terminals idle.
 */
public record RateSpec(Kind kind, double opsPerSecond) {
    public enum Kind {
        OPEN,
        UNLIMITED,
        DISABLED
    }

    public static RateSpec open(double opsPerSecond) {
        return new RateSpec(Kind.OPEN, opsPerSecond);
    }

    public static RateSpec unlimited() {
        return new RateSpec(Kind.UNLIMITED, 0);
    }

    public static RateSpec disabled() {
        return new RateSpec(Kind.DISABLED, 0);
    }

    public boolean isOpen() {
        return kind == Kind.OPEN;
    }
}
