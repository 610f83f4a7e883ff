package org.ivsbench.experiment;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * The time left of an experiment invocation, for its progress lines. An epoch takes longer than the one before it
 * (its records are larger, the fresh modes build more), so the time per phase so far underestimates what is left:
 * once three epochs have finished, the epochs' durations are fitted by a line in the epoch number (least squares,
 * its slope at least 0), and the time left is that line summed over the epochs to come plus the unfinished share
 * of the epoch under way. Before that, the elapsed time per finished phase times the phases left.
 */
final class EpochProgress {
    /** Finished epochs before the ETA follows their durations' trend. */
    static final int TREND_AFTER = 3;

    private final LongSupplier nanos;
    private final int first;
    private final int last;
    private final int phasesPerEpoch;
    private final long started;
    private long epochStarted;
    private int phasesDone;
    private int phasesThisEpoch;
    private final List<double[]> durations = new ArrayList<>();

    /** Epochs {@code first} .. {@code last}, each of {@code phasesPerEpoch} phases, timed by {@code nanos}. */
    EpochProgress(LongSupplier nanos, int first, int last, int phasesPerEpoch) {
        this.nanos = nanos;
        this.first = first;
        this.last = last;
        this.phasesPerEpoch = Math.max(1, phasesPerEpoch);
        this.started = nanos.getAsLong();
        this.epochStarted = started;
    }

    static EpochProgress system(int first, int last, int phasesPerEpoch) {
        return new EpochProgress(System::nanoTime, first, last, phasesPerEpoch);
    }

    /** A phase finished (a slice counts as one). */
    void phaseDone() {
        phasesDone++;
        phasesThisEpoch++;
    }

    /** Epoch {@code epoch} finished: its duration joins the trend. */
    void epochDone(int epoch) {
        long now = nanos.getAsLong();
        durations.add(new double[] {epoch, (now - epochStarted) / 1e9});
        epochStarted = now;
        phasesThisEpoch = 0;
    }

    /** The estimated seconds left, rounded. */
    long etaSeconds() {
        int epochsLeft = last - first + 1 - durations.size();
        if (durations.size() < TREND_AFTER) {
            if (phasesDone == 0) {
                return 0;
            }
            double elapsed = (nanos.getAsLong() - started) / 1e9;
            long phasesLeft = (long) epochsLeft * phasesPerEpoch - phasesThisEpoch;
            return Math.round(elapsed / phasesDone * Math.max(0, phasesLeft));
        }
        double[] line = fit();
        int current = last - epochsLeft + 1;
        double left = 0;
        for (int e = current; e <= last; e++) {
            left += Math.max(0, line[0] + line[1] * e);
        }
        // the epoch under way: its finished share is already spent
        double spentShare = Math.min(1.0, (double) phasesThisEpoch / phasesPerEpoch);
        left -= spentShare * Math.max(0, line[0] + line[1] * current);
        return Math.round(Math.max(0, left));
    }

    /** {intercept, slope} of the finished epochs' durations against their numbers; a falling trend counts as flat. */
    private double[] fit() {
        int n = durations.size();
        double mx = 0, my = 0;
        for (double[] d : durations) {
            mx += d[0] / n;
            my += d[1] / n;
        }
        double sxy = 0, sxx = 0;
        for (double[] d : durations) {
            sxy += (d[0] - mx) * (d[1] - my);
            sxx += (d[0] - mx) * (d[0] - mx);
        }
        double slope = sxx > 0 ? Math.max(0, sxy / sxx) : 0;
        return new double[] {my - slope * mx, slope};
    }

    /** Seconds as h:mm:ss. */
    static String duration(long seconds) {
        return String.format("%d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60);
    }
}
