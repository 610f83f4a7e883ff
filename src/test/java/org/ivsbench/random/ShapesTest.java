package org.ivsbench.random;

import java.util.SplittableRandom;

import org.apache.commons.statistics.distribution.PoissonDistribution;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ShapesTest {

    @Test
    void tabulatedDiscreteDrawsAreTheInverseCdfs() {
        PoissonDistribution d = PoissonDistribution.of(40);
        Shapes.TruncatedDiscrete table = new Shapes.TruncatedDiscrete(d, 5, 99, "test");
        double pLo = d.cumulativeProbability(4);
        double pWidth = d.cumulativeProbability(99) - pLo;
        SplittableRandom r = new SplittableRandom(3);
        for (int i = 0; i < 100_000; i++) {
            double u = r.nextDouble();
            long expected = Math.max(5, Math.min(99, d.inverseCumulativeProbability(pLo + u * pWidth)));
            assertEquals(expected, table.at(u), "u " + u);
        }
        assertEquals(5, table.at(0));
        assertEquals(99, table.at(Math.nextDown(1.0)));
    }
}
