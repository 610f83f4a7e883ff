package org.ivsbench.bench.ycsbivs.procedures;

import java.util.HashMap;
import java.util.Map;
import java.util.function.LongFunction;
import java.util.function.LongPredicate;

import org.ivsbench.random.LiveKeys;

/**
 * One section's key space during a run, shared by the terminals: its live keys ({@link LiveKeys}) and how a key
 * number becomes the section's key. Lives in the module instance (one run).
 */
public final class SectionKeys {
    private final String name;
    private final LongFunction<String> keyName;
    private final LiveKeys live;
    /** The dense key space each phase's distributions draw over, fixed by the first terminal to start it. */
    private final Map<Integer, Long> cellsByPhase = new HashMap<>();

    public SectionKeys(String name, long loaded, LongFunction<String> keyName) {
        this(name, loaded, keyName, null);
    }

    /** With the planned order of the first inserts' numbers, as offsets from loaded ({@link LiveKeys}). */
    public SectionKeys(String name, long loaded, LongFunction<String> keyName, int[] insertOrder) {
        this(name, loaded, keyName, insertOrder, null, 0);
    }

    /**
     * With a hot range: the key numbers {@code hot} accepts get {@code hotShare} of the key choices ({@link
     * LiveKeys#LiveKeys(long, int[], LongPredicate, double)}); null for none.
     */
    public SectionKeys(
            String name,
            long loaded,
            LongFunction<String> keyName,
            int[] insertOrder,
            LongPredicate hot,
            double hotShare) {
        this.name = name;
        this.keyName = keyName;
        this.live = new LiveKeys(loaded, insertOrder, hot, hotShare);
    }

    public String name() {
        return name;
    }

    public LiveKeys live() {
        return live;
    }

    public String key(long number) {
        return keyName.apply(number);
    }

    /**
     * The size of the dense key space a phase's distributions draw over: the live keys when the phase starts
     * plus the inserts it is expected to make (a count phase's count times the insert share; 0 for a time
     * phase), at least 1. Fixed once per phase, so every terminal of the phase draws over the same space.
     */
    public synchronized long cells(int phaseIndex, long expectedInserts) {
        return cellsByPhase.computeIfAbsent(phaseIndex, p -> Math.max(1, live.liveCount() + expectedInserts));
    }
}
