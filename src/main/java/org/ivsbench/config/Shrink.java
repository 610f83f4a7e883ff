package org.ivsbench.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code --shrink}: any config at a small size, by one rule instead of per-file copies, so every shipped config can
 * be tried in seconds. Each size setting is capped (a smaller value stays as it is):
 *
 * <ul>
 *   <li>records: the benchmark's record-count parameters (it declares them, e.g. ycsbivs's) at most
 *       {@value #RECORDS}; {@code scalefactor} at most {@value #SCALE_FACTOR} (BenchBase's 1,000 rows per unit);
 *   <li>phases ({@code works/work}): {@code time} at most {@value #SECONDS} s, {@code count} at most
 *       {@value #COUNT}, {@code warmup} at most {@value #WARMUP_SECONDS} s, a step ramp's {@code every} below the
 *       shrunk time;
 *   <li>{@code <experiment>}: the leaves the experiment runner and the benchmark declare (epochs at most
 *       {@value #EPOCHS}, trials at most {@value #TRIALS}, warmup at most {@value #WARMUP_SECONDS} s, the quiescence
 *       wait's {@code quiesce/timeout} at most {@value #QUIESCE_SECONDS} s (its default written out first, so it is
 *       capped too; the wait still runs), the benchmark's per-phase counts at most {@value #COUNT});
 *   <li>{@code <sweep>}: at most {@value #POINTS_PER_AXIS} points per axis (the first and the last), counts at most
 *       {@value #COUNT}, trials at most {@value #TRIALS};
 *   <li>terminals: {@code <terminals>}, a phase's {@code active_terminals} and each sweep point's terminals at most
 *       {@value #TERMINALS} (a stock server's connection limit, e.g. MariaDB's 151, holds a shrunk sweep's last
 *       point).
 * </ul>
 *
 * The result lists every change ("recordcount 1000 -> 100"); results record it (environment.json {@code shrunk}),
 * so a shrunk run cannot pass for a real one.
 */
public final class Shrink {
    public static final long RECORDS = 100;
    public static final double SCALE_FACTOR = 0.1;
    public static final long SECONDS = 2;
    public static final long WARMUP_SECONDS = 1;
    public static final long COUNT = 200;
    public static final long EPOCHS = 1;
    public static final long TRIALS = 2;
    public static final int POINTS_PER_AXIS = 2;
    public static final int TERMINALS = 16;
    public static final long QUIESCE_SECONDS = 2;

    private Shrink() {}

    /**
     * {@code config} with every size capped. {@code parameterCaps}: the benchmark's top-level parameters and their
     * caps; {@code experimentCaps}: leaves of the flattened {@code <experiment>} and their caps. A value that is not
     * a whole number is left for validation to report.
     */
    public static BenchmarkConfig apply(
            BenchmarkConfig config, Map<String, Long> parameterCaps, Map<String, Long> experimentCaps) {
        List<String> changes = new ArrayList<>();
        BenchmarkConfig.Builder b = config.toBuilder();

        Map<String, String> parameters = new LinkedHashMap<>(config.parameters());
        capAll(parameters, parameterCaps, "", changes);
        b.parameters(parameters);
        if (config.scaleFactor() > SCALE_FACTOR) {
            changes.add("scalefactor " + number(config.scaleFactor()) + " -> " + number(SCALE_FACTOR));
            b.scaleFactor(SCALE_FACTOR);
        }

        if (config.terminals() > TERMINALS) {
            changes.add("terminals " + config.terminals() + " -> " + TERMINALS);
            b.terminals(TERMINALS);
        }

        List<PhaseConfig> phases = new ArrayList<>();
        for (PhaseConfig p : config.phases()) {
            phases.add(phase(p, config.terminals(), changes));
        }
        b.phases(phases);

        if (config.experiment() != null) {
            Map<String, String> experiment = new LinkedHashMap<>(config.experiment());
            capAll(experiment, experimentCaps, "experiment/", changes);
            b.experiment(experiment);
        }
        if (config.sweep() != null) {
            b.sweep(sweep(config.sweep(), changes));
        }
        List<String> all = new ArrayList<>(config.shrunk());
        all.addAll(changes);
        return b.shrunk(all).build();
    }

    /** The one line {@code --shrink} prints: what it changed, old -> new. */
    public static String describe(String who, BenchmarkConfig shrunk) {
        String what = shrunk.shrunk().isEmpty() ? "nothing to shrink" : String.join(", ", shrunk.shrunk());
        return who + "--shrink: " + what + " (a smoke-test size: not a result to compare)";
    }

    private static void capAll(
            Map<String, String> values, Map<String, Long> caps, String prefix, List<String> changes) {
        // In name order: a config's maps keep no order, and the printed line must not change from run to run.
        for (Map.Entry<String, Long> cap : new TreeMap<>(caps).entrySet()) {
            String text = values.get(cap.getKey());
            if (text == null) {
                continue;
            }
            long value;
            try {
                value = Long.parseLong(text.strip());
            } catch (NumberFormatException e) {
                continue;
            }
            if (value > cap.getValue()) {
                values.put(cap.getKey(), Long.toString(cap.getValue()));
                changes.add(prefix + cap.getKey() + " " + value + " -> " + cap.getValue());
            }
        }
    }

    private static PhaseConfig phase(PhaseConfig p, int terminals, List<String> changes) {
        String at = "works/work[" + (p.index() + 1) + "]/";
        PhaseConfig.Builder b = p.toBuilder();
        if (p.activeTerminals() > TERMINALS) {
            // A phase that runs on all terminals follows <terminals> (its line says so); one set on its own says so.
            if (p.activeTerminals() != terminals) {
                changes.add(at + "active_terminals " + p.activeTerminals() + " -> " + TERMINALS);
            }
            b.activeTerminals(TERMINALS);
        }
        long time = p.timeSeconds();
        if (time > SECONDS) {
            changes.add(at + "time " + time + " -> " + SECONDS);
            time = SECONDS;
            b.timeSeconds(time);
        }
        if (p.count() > COUNT) {
            changes.add(at + "count " + p.count() + " -> " + COUNT);
            b.count(COUNT);
        }
        if (p.warmupSeconds() > WARMUP_SECONDS) {
            changes.add(at + "warmup " + p.warmupSeconds() + " -> " + WARMUP_SECONDS);
            b.warmupSeconds(WARMUP_SECONDS);
        }
        RampConfig ramp = p.ramp();
        if (ramp != null && ramp.shape() == RampConfig.Shape.STEP && time > 0 && ramp.everySeconds() >= time) {
            long every = Math.max(1, time / 2);
            changes.add(at + "ramp/every " + ramp.everySeconds() + " -> " + every);
            b.ramp(new RampConfig(ramp.shape(), every, ramp.rate(), ramp.weights(), ramp.parameters()));
        }
        return b.build();
    }

    private static SweepConfig sweep(SweepConfig s, List<String> changes) {
        List<Integer> terminals = new ArrayList<>();
        for (int t : firstAndLast(s.terminals())) {
            int capped = Math.min(t, TERMINALS);
            if (!terminals.contains(capped)) {
                terminals.add(capped);
            }
        }
        if (!terminals.equals(s.terminals())) {
            changes.add("sweep/terminals " + joined(s.terminals()) + " -> " + joined(terminals));
        }
        List<Long> counts = new ArrayList<>();
        for (long c : firstAndLast(s.counts())) {
            long capped = Math.min(c, COUNT);
            if (!counts.contains(capped)) {
                counts.add(capped);
            }
        }
        if (!counts.equals(s.counts())) {
            changes.add("sweep/counts " + joined(s.counts()) + " -> " + joined(counts));
        }
        int trials = s.trials();
        if (trials > TRIALS) {
            changes.add("sweep/trials " + trials + " -> " + TRIALS);
            trials = (int) TRIALS;
        }
        return new SweepConfig(terminals, counts, trials, s.reload());
    }

    /** At most {@link #POINTS_PER_AXIS} values: the first and the last. */
    static <T> List<T> firstAndLast(List<T> values) {
        if (values.size() <= POINTS_PER_AXIS) {
            return values;
        }
        return List.of(values.get(0), values.get(values.size() - 1));
    }

    private static String joined(List<?> values) {
        return values.isEmpty()
                ? "(none)"
                : String.join(",", values.stream().map(String::valueOf).toList());
    }

    private static String number(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%s", v);
    }
}
