package org.ivsbench.experiment;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * The time left of an experiment invocation, for its progress lines. An epoch takes longer than the one before it
 * (its records are larger, the fresh modes build more), so the time per phase so far underestimates what is left:
 * once four epochs after the invocation's first have finished, their durations are fitted by a line in the epoch
 * number, and the time left is that line summed over the epochs to come plus the unfinished share of the epoch under
 * way. Before that, the elapsed time per finished phase times the phases left.
 *
 * <p>The line is Theil-Sen's (the median of the pairwise slopes, at least 0; the intercept the median of what each
 * epoch leaves over the slope), and the invocation's first epoch is not in it: the first epoch carries the start-up
 * (a fresh instance's first start, the JVM's warm-up) and one unusual epoch (a stall, a restart) would tilt a
 * least-squares line fitted to a few points, which the sum over the epochs to come then multiplies. A 100-epoch run
 * whose first epoch took 13 s and the next two 16-17 s printed 3:06 left after epoch 3 and 1:36 after epoch 5, with
 * least squares from the first epoch on; it took 0:54 in all.
 */
final class EpochProgress {
    /** Finished epochs after the invocation's first before the ETA follows their durations' trend. */
    static final int TREND_AFTER = 4;

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
        if (durations.size() < TREND_AFTER + 1) {
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

    /**
     * {intercept, slope} of the finished epochs' durations after the first against their numbers, by Theil-Sen; a
     * falling trend counts as flat.
     */
    private double[] fit() {
        List<double[]> points = durations.subList(1, durations.size());
        int n = points.size();
        double[] slopes = new double[n * (n - 1) / 2];
        int k = 0;
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                double[] a = points.get(i);
                double[] b = points.get(j);
                slopes[k++] = (b[1] - a[1]) / (b[0] - a[0]);
            }
        }
        double slope = Math.max(0, median(slopes));
        double[] rest = new double[n];
        for (int i = 0; i < n; i++) {
            rest[i] = points.get(i)[1] - slope * points.get(i)[0];
        }
        return new double[] {median(rest), slope};
    }

    private static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        int m = v.length / 2;
        return v.length % 2 == 1 ? v[m] : (v[m - 1] + v[m]) / 2;
    }

    /** Seconds as h:mm:ss. */
    static String duration(long seconds) {
        return String.format("%d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60);
    }
}
