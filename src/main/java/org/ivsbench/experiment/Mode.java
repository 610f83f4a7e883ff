package org.ivsbench.experiment;

import java.util.Locale;

/**
 * The experiment modes: the four of YCSB-IVS, and main-maintained - a physical copy of main's data after each
 * epoch's extends, reorganized by the platform's own maintenance, then read like the others (the paper's open
 * question: does maintenance remove the history effect?). Every mode of an epoch replays the same run phase.
 */
public enum Mode {
    MAIN("main"),
    CLEAN("clean"),
    AVERAGE_BASELINE("average-baseline"),
    SPREAD_BASELINE("spread-baseline"),
    MAINTAINED("main-maintained");

    /** The modes an experiment runs when it names none: the paper's four. */
    public static final java.util.List<Mode> PAPER = java.util.List.of(MAIN, CLEAN, AVERAGE_BASELINE, SPREAD_BASELINE);

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
