package org.ivsbench.engine;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;

import org.ivsbench.bench.Terminal;
import org.ivsbench.config.PhaseConfig;
import org.ivsbench.op.OpResult;

/**
 * A terminal whose every operation takes {@code serviceNanos} of virtual time. It logs (type, a draw from the
 * phase's stream: its "key"), over the run and per phase, so sequences can be compared; one operation of type
 * 1 in ten is skipped, the rest are ok.
 */
class SimTerminal implements Terminal {
    final List<String> log = Collections.synchronizedList(new ArrayList<>());
    final Map<Integer, List<String>> byPhase = new ConcurrentHashMap<>();
    final List<Long> startedAt = Collections.synchronizedList(new ArrayList<>());
    final VirtualClock clock;
    final long serviceNanos;
    private SplittableRandom random;
    private List<String> phaseLog;
    volatile int phase = -1;

    SimTerminal(VirtualClock clock, long serviceNanos) {
        this.clock = clock;
        this.serviceNanos = serviceNanos;
    }

    @Override
    public void startPhase(PhaseConfig p, SplittableRandom phaseRandom) {
        phase = p.index();
        random = phaseRandom;
        phaseLog = Collections.synchronizedList(new ArrayList<>());
        byPhase.put(p.index(), phaseLog);
    }

    @Override
    public OpResult execute(int type) {
        String op = type + ":" + random.nextInt(1000);
        log.add(op);
        phaseLog.add(op);
        startedAt.add(clock.nanoTime());
        clock.work(serviceNanos(phaseLog.size()));
        return type == 1 && random.nextInt(10) == 0 ? OpResult.skipped("cap", 0) : OpResult.ok(10, 0);
    }

    /** The virtual time the {@code nth} operation of the phase (from 1) takes; override to vary it. */
    long serviceNanos(int nth) {
        return serviceNanos;
    }

    @Override
    public void close() {}
}
