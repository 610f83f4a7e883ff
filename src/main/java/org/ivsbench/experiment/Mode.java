package org.ivsbench.experiment;

import java.util.Locale;

/**
 * The four experiment modes of YCSB-IVS. The ordinal is the mode index used in per-phase seeds
 * ({@code randomSeed + epoch * 1000 + index}).
 */
public enum Mode {
    MAIN("main"),
    CLEAN("clean"),
    AVERAGE_BASELINE("average-baseline"),
    SPREAD_BASELINE("spread-baseline");

    private final String label;

    Mode(String label) {
        this.label = label;
    }

    /** The name used in the config, in epochs.csv and as the folder name. */
    public String label() {
        return label;
    }

    public static Mode byLabel(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        for (Mode m : values()) {
            if (m.label.equals(t)) {
                return m;
            }
        }
        return null;
    }
}
