package org.ivsbench.config;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** {@code sweep}: parsed and checked against the phases it changes; see {@link SweepConfig}. */
final class SweepSection {
    static final List<String> ELEMENTS = List.of("terminals", "counts", "trials", "reload");
    /** A terminal is a thread and a connection; beyond this a typo (an extra zero) is more likely than intent. */
    static final int MAX_TERMINALS = 4096;

    private SweepSection() {}

    static SweepConfig parse(Element root, List<PhaseConfig> phases, boolean experimentPresent) throws ConfigException {
        Element section = root.single("sweep");
        if (section == null) {
            return null;
        }
        if (experimentPresent) {
            throw new ConfigException(
                    "sweep",
                    "cannot be combined with <experiment> (an experiment has its own"
                            + " epochs); sweep a plain <works> config");
        }
        section.requireSection(ELEMENTS);
        List<Integer> terminals = new ArrayList<>();
        for (long value : list(section, "terminals", MAX_TERMINALS)) {
            terminals.add((int) value);
        }
        List<Long> counts = list(section, "counts", Long.MAX_VALUE);
        if (!counts.isEmpty()) {
            long countPhases = phases.stream().filter(PhaseConfig::endsByCount).count();
            if (countPhases != 1) {
                throw new ConfigException(
                        "sweep/counts",
                        "'" + section.leaf("counts") + "' replaces the count of the"
                                + " one count phase, but <works> has " + countPhases + " phases that end by count; give"
                                + " exactly one <work> with <count> (time phases are kept as they are)");
            }
        }
        int trials = section.intAtLeast("trials", 1, 1);
        boolean reload = section.bool("reload", false);
        if (terminals.isEmpty() && counts.isEmpty() && trials == 1) {
            throw new ConfigException("sweep", "sweeps nothing: give <terminals>, <counts> or <trials> above 1");
        }
        return new SweepConfig(terminals, counts, trials, reload);
    }

    /** A comma-separated list of distinct whole numbers from 1 to {@code max}; empty when the element is absent. */
    private static List<Long> list(Element section, String name, long max) throws ConfigException {
        String text = section.leaf(name);
        if (text == null) {
            return List.of();
        }
        String path = section.childPath(name);
        if (text.isBlank()) {
            throw new ConfigException(path, "is empty; give a comma-separated list such as 1,2,4");
        }
        Set<Long> values = new LinkedHashSet<>();
        for (String item : text.split(",", -1)) {
            String s = item.strip();
            if (s.isEmpty()) {
                throw new ConfigException(path, "'" + text + "' has an empty item");
            }
            long value = Leaves.parseLong(path, s);
            if (value < 1 || value > max) {
                throw new ConfigException(path, "'" + s + "' in '" + text + "' must be from 1 to " + max);
            }
            if (!values.add(value)) {
                throw new ConfigException(path, "'" + text + "' lists " + s + " twice");
            }
        }
        return List.copyOf(values);
    }
}
