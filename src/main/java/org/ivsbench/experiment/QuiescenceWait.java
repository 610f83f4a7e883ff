package org.ivsbench.experiment;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

import org.ivsbench.db.Quiescence;
import org.ivsbench.db.QuietGauge;
import org.ivsbench.db.QuietRule;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;

/**
 * The bounded wait before each measured run phase of an experiment (experiment/quiesce/timeout): the target's
 * {@link Quiescence} settles the server, then its gauges are read every {@link #INTERVAL_MS} until
 * {@link QuietRule} says quiet or the timeout has passed. What quiet means is the database kind's; this class
 * only polls. A kind without the capability is quiet at once. The clock and the sleep are given, so the timing
 * logic runs on a virtual clock in tests.
 */
final class QuiescenceWait {
    static final long INTERVAL_MS = 1000;
    static final long DEFAULT_TIMEOUT_SECONDS = 60;

    /** Sleeps {@code millis}; interruptible. */
    interface Sleeper {
        void sleep(long millis) throws InterruptedException;
    }

    /**
     * How a wait ended: its length (settling included), whether it ended without the server seen quiet (the
     * timeout passed, or the server could not be asked: {@code error}), the gauges still busy then, and the
     * engine's state the run phase starts from ({@link Quiescence.Probe#state}; empty when the kind has none or it
     * could not be read).
     */
    record Result(long millis, boolean timedOut, List<String> busy, String error, Map<String, Double> state) {
        Result {
            busy = List.copyOf(busy);
            state = Map.copyOf(state);
        }

        Result(long millis, boolean timedOut, List<String> busy, String error) {
            this(millis, timedOut, busy, error, Map.of());
        }

        /** The progress line's part: {@code quiet after 1.2 s} or {@code not quiet after 60.0 s (...)}. */
        String describe() {
            String s = String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
            if (!timedOut) {
                return "quiet after " + s;
            }
            return "not quiet after " + s + " ("
                    + (busy.isEmpty() && error != null ? error : "still busy: " + String.join(", ", busy)) + ")";
        }
    }

    private final long timeoutNanos;
    private final LongSupplier nanoClock;
    private final Sleeper sleeper;
    private final BooleanSupplier stopped;

    QuiescenceWait(long timeoutSeconds, LongSupplier nanoClock, Sleeper sleeper, BooleanSupplier stopped) {
        this.timeoutNanos = timeoutSeconds * 1_000_000_000L;
        this.nanoClock = nanoClock;
        this.sleeper = sleeper;
        this.stopped = stopped;
    }

    /** The wait on the real clock. */
    static QuiescenceWait system(long timeoutSeconds, BooleanSupplier stopped) {
        return new QuiescenceWait(timeoutSeconds, System::nanoTime, Thread::sleep, stopped);
    }

    /** Whether a wait happens at all (a timeout of 0 disables it). */
    boolean enabled() {
        return timeoutNanos > 0;
    }

    /**
     * Waits until the server behind {@code target} is quiet for a run phase on {@code table}, at most the timeout
     * (ends early, not quiet, when stopped); null when the wait is disabled.
     */
    Result await(Target target, String table) throws InterruptedException {
        if (!enabled()) {
            return null;
        }
        long start = nanoClock.getAsLong();
        Optional<Quiescence> quiescence = target.capability(Quiescence.class);
        if (quiescence.isEmpty()) {
            return new Result(0, false, List.of(), null);
        }
        List<List<QuietGauge>> readings = new ArrayList<>();
        try (Quiescence.Probe probe = quiescence.get().settle(table)) {
            while (true) {
                readings.add(probe.read());
                long elapsed = nanoClock.getAsLong() - start;
                boolean quiet = QuietRule.quiet(readings);
                if (quiet || elapsed >= timeoutNanos || stopped.getAsBoolean()) {
                    Map<String, Double> state = Map.of();
                    String stateError = null;
                    try {
                        state = probe.state();
                    } catch (TargetException e) {
                        // the wait's verdict stands; the run phase goes on, and the warning line says what is missing
                        stateError = "engine state not recorded: " + e.getMessage();
                    }
                    return quiet
                            ? new Result(elapsed / 1_000_000, false, List.of(), stateError, state)
                            : new Result(elapsed / 1_000_000, true, QuietRule.busy(readings), stateError, state);
                }
                sleeper.sleep(Math.min(INTERVAL_MS, Math.max(1, (timeoutNanos - elapsed) / 1_000_000)));
            }
        } catch (TargetException e) {
            return new Result((nanoClock.getAsLong() - start) / 1_000_000, true, List.of(), e.getMessage());
        }
    }
}
