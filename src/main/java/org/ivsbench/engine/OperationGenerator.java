package org.ivsbench.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.ivsbench.bench.Terminal;
import org.ivsbench.config.PhaseConfig;
import org.ivsbench.config.RampConfig;
import org.ivsbench.config.RateSpec;

/**
 * The engine's terminals without a clock: runs the operations of each phase on the benchmark's own terminals, one
 * after another in the calling thread, with the random streams and transaction-type choice of the engine's
 * terminals ({@link Worker}): the same seed gives the same draws. Its terminals' sessions are meant to write down
 * what they are asked rather than ask a database (the {@code generate} subcommand).
 *
 * <p>Only count phases can be generated: how many operations a time phase holds depends on how fast a database
 * answers ({@link #check}). A live count phase is shared among its active terminals by their speed; here they take
 * its operations in turn (terminal 0, 1, ..., 0, 1, ...), so each terminal issues the first operations of its own
 * sequence, an equal share of the count. Rates, arrivals, think times and waits only space operations in time and
 * change no draw; they are not applied. A phase's warmup is time-based and is not generated: each terminal's
 * sequence starts where a phase without warmup starts.
 */
public final class OperationGenerator {
    private final List<PhaseConfig> phases;
    private final int terminals;
    private final long seed;

    public OperationGenerator(List<PhaseConfig> phases, int terminals, long seed) {
        this.phases = List.copyOf(phases);
        this.terminals = terminals;
        this.seed = seed;
    }

    /**
     * Why a phase cannot be generated, naming it, or null when every phase can: a time phase (give it a count),
     * a ramp (it moves with the phase's time). A disabled phase issues nothing and is fine.
     */
    public static String check(List<PhaseConfig> phases) {
        for (PhaseConfig p : phases) {
            String name = "works/work[" + (p.index() + 1) + "] (phase '" + p.name() + "')";
            if (p.rate().kind() == RateSpec.Kind.DISABLED) {
                continue;
            }
            if (!p.endsByCount()) {
                return name + " ends by time (" + p.timeSeconds() + " s): how many operations it holds depends on"
                        + " the database; give it a <count>, or give --count";
            }
            RampConfig ramp = p.ramp();
            if (ramp != null) {
                return name + " has a <ramp>, which moves with the phase's time: it cannot be generated";
            }
        }
        return null;
    }

    /**
     * Issues every phase's operations on terminals from {@code factory} (created first, closed at the end); returns
     * the number of benchmark operations issued.
     */
    public long run(WorkloadManager.TerminalFactory factory) throws Exception {
        String bad = check(phases);
        if (bad != null) {
            throw new IllegalArgumentException(bad);
        }
        List<Terminal> created = new ArrayList<>();
        long issued = 0;
        try {
            for (int id = 0; id < terminals; id++) {
                created.add(factory.create(id));
            }
            for (PhaseConfig phase : phases) {
                if (phase.rate().kind() == RateSpec.Kind.DISABLED) {
                    continue;
                }
                issued += runPhase(phase, created);
            }
        } finally {
            for (Terminal t : created) {
                t.close();
            }
        }
        return issued;
    }

    private long runPhase(PhaseConfig phase, List<Terminal> created) throws InterruptedException {
        int active = Math.min(phase.activeTerminals(), created.size());
        if (active <= 0) {
            return 0;
        }
        TypeChooser[] choosers = new TypeChooser[active];
        for (int id = 0; id < active; id++) {
            SplittableRandom[] streams = WorkloadManager.terminalStreams(seed, id, phase.index());
            created.get(id).startPhase(phase, streams[1]);
            choosers[id] = new TypeChooser(phase, streams[0]);
        }
        int id = 0;
        for (long i = 0; i < phase.count(); i++) {
            if ((i & 0xFFF) == 0 && Thread.interrupted()) {
                throw new InterruptedException();
            }
            Terminal t = created.get(id);
            int type = choosers[id].next();
            t.beforeOperation(() -> true);
            t.execute(type);
            if (++id == active) {
                id = 0;
            }
        }
        return phase.count();
    }
}
