package org.ivsbench.experiment;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.ivsbench.experiment.Mode.AVERAGE_BASELINE;
import static org.ivsbench.experiment.Mode.CLEAN;
import static org.ivsbench.experiment.Mode.MAIN;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The order of the slices and their shares, on paper: the mirrored rounds and shares that add up. */
class InterleavedModesTest {
    private static String order(List<Mode> modes, int slices, boolean firstDone) {
        StringBuilder b = new StringBuilder();
        for (InterleavedModes.Step s : InterleavedModes.order(modes, slices, firstDone)) {
            b.append(s.mode() == MAIN ? "M" : s.mode() == CLEAN ? "C" : "A")
                    .append(s.slice())
                    .append(' ');
        }
        return b.toString().strip();
    }

    @Test
    void roundsAlternateInMirroredOrder() {
        assertEquals("M1 C1 C2 M2 M3 C3 C4 M4", order(List.of(MAIN, CLEAN), 4, false));
        assertEquals("C1 C2 M2 M3 C3", order(List.of(MAIN, CLEAN), 3, true));
        assertEquals("M1 C1 A1 A2 C2 M2", order(List.of(MAIN, CLEAN, AVERAGE_BASELINE), 2, false));
        assertEquals("M1", order(List.of(MAIN), 1, false));
    }

    /**
     * With an even number of rounds every mode's slices sit at the same mean position in the sequence, so a
     * speed that drifts linearly over the epoch weighs on every mode alike.
     */
    @Test
    void evenRoundsBalanceEveryModesMeanPosition() {
        List<Mode> modes = List.of(MAIN, CLEAN, AVERAGE_BASELINE);
        for (int slices = 2; slices <= 8; slices += 2) {
            List<InterleavedModes.Step> steps = InterleavedModes.order(modes, slices, false);
            for (Mode m : modes) {
                double sum = 0;
                for (int i = 0; i < steps.size(); i++) {
                    if (steps.get(i).mode() == m) {
                        sum += i;
                    }
                }
                assertEquals((steps.size() - 1) / 2.0, sum / slices, 1e-9, m + " in " + slices + " slices");
            }
        }
    }

    @Test
    void sharesAddUpToTheWhole() {
        for (long total : new long[] {5, 100, 100_001}) {
            for (int slices = 1; slices <= 7; slices++) {
                long sum = 0;
                for (int s = 1; s <= slices; s++) {
                    long share = InterleavedModes.share(total, s, slices);
                    assertEquals(total / slices, share, 1.0, total + "/" + slices);
                    sum += share;
                }
                assertEquals(total, sum, total + " in " + slices);
            }
        }
        assertEquals("run", InterleavedModes.part(1, 1));
        assertEquals("run-03", InterleavedModes.part(3, 4));
    }
}
