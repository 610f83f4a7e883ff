package org.ivsbench.mode;

import java.util.ArrayList;
import java.util.List;

import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.PhaseConfig;
import org.ivsbench.config.SweepConfig;

/** The points of a {@code <sweep>} and the config each one runs. */
final class SweepPoints {
    /** One run of a sweep; {@code count} is null when the sweep keeps the phases' own ends. */
    record Point(int terminals, Long count, int trial) {
        String folderName() {
            return "t" + terminals + "-n" + (count == null ? "config" : count) + "-trial" + trial;
        }
    }

    private SweepPoints() {}

    /** Terminals outermost, then counts, then trials: a trial's repeats sit together, as the paper's grid reads. */
    static List<Point> of(BenchmarkConfig config) {
        SweepConfig sweep = config.sweep();
        List<Integer> terminals = sweep.terminals().isEmpty() ? List.of(config.terminals()) : sweep.terminals();
        List<Long> counts = new ArrayList<>(sweep.counts());
        if (counts.isEmpty()) {
            counts.add(null);
        }
        List<Point> points = new ArrayList<>();
        for (int t : terminals) {
            for (Long n : counts) {
                for (int k = 1; k <= sweep.trials(); k++) {
                    points.add(new Point(t, n, k));
                }
            }
        }
        return points;
    }

    /**
     * The config of one point. Every phase that used all terminals uses the point's terminals; a phase with
     * fewer active terminals keeps its number, capped at the point's.
     */
    static BenchmarkConfig configFor(BenchmarkConfig config, Point point) {
        List<PhaseConfig> phases = new ArrayList<>();
        for (PhaseConfig p : config.phases()) {
            int active = p.activeTerminals() == config.terminals()
                    ? point.terminals()
                    : Math.min(p.activeTerminals(), point.terminals());
            PhaseConfig.Builder b = p.toBuilder().activeTerminals(active);
            if (point.count() != null && p.endsByCount()) {
                b.count(point.count());
            }
            phases.add(b.build());
        }
        return config.toBuilder()
                .terminals(point.terminals())
                .phases(phases)
                .sweep(null)
                .build();
    }

    /** The phase a sweep row reports: the count phase when there is exactly one, else the last phase. */
    static int measuredPhase(BenchmarkConfig config) {
        List<PhaseConfig> counted =
                config.phases().stream().filter(PhaseConfig::endsByCount).toList();
        return counted.size() == 1 ? counted.get(0).index() : config.phases().size() - 1;
    }
}
