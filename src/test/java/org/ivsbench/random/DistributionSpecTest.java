package org.ivsbench.random;

import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The expression syntax and the key catalog's validation; every message says what to change. */
class DistributionSpecTest {

    @Test
    void parsesNamesAndParametersAndFillsDefaults() {
        DistributionSpec plain = KeyDistributions.parse(" Zipfian ");
        assertEquals("zipfian", plain.name());
        assertEquals(Map.of("theta", 0.99), plain.parameters());
        assertTrue(KeyDistributions.isYcsb(plain));

        DistributionSpec normal = KeyDistributions.parse("normal( mean = 0.25 ,stddev=5e-2)");
        assertEquals(0.25, normal.get("mean"));
        assertEquals(0.05, normal.get("stddev"));
        assertEquals(
                Map.of("mean", 0.5, "stddev", 0.1),
                KeyDistributions.parse("normal()").parameters());
        assertEquals(
                Map.of("alpha", 2.0, "beta", 5.0),
                KeyDistributions.parse("beta").parameters());
        assertEquals(0.3, KeyDistributions.parse("hotspot(set=0.3)").get("set"));
        assertTrue(KeyDistributions.isYcsb(KeyDistributions.parse("hotspot(set=0.2, ops=0.8)")));
        assertTrue(KeyDistributions.isYcsb(KeyDistributions.parse("exponential")));
        assertTrue(!KeyDistributions.isYcsb(KeyDistributions.parse("exponential(mean=0.2)")));
        assertTrue(!KeyDistributions.isYcsb(KeyDistributions.parse("zipfian(theta=0.8)")));
    }

    @Test
    void rejectsBadExpressionsWithTheReason() {
        assertEquals("parameter mean needs a decimal number, got ''", error("normal(mean=)"));
        assertEquals("beta parameter alpha=-1 must be > 0", error("beta(alpha=-1)"));
        assertEquals(
                "unknown distribution 'gaussian'; valid: uniform, zipfian, zipfian-unscrambled, latest, hotspot,"
                        + " sequential, exponential, normal, beta, lognormal, pareto, weibull, poisson",
                error("gaussian"));
        assertEquals("normal has no parameter 'sigma'; it takes mean, stddev", error("normal(sigma=1)"));
        assertEquals("uniform has no parameter 'min' (it takes none)", error("uniform(min=1)"));
        assertEquals("lognormal needs parameter mu (a finite number); it takes mu, sigma", error("lognormal(sigma=1)"));
        assertEquals("zipfian parameter theta=1 must be in (0, 1)", error("zipfian(theta=1)"));
        assertEquals("hotspot parameter ops=1.5 must be in [0, 1]", error("hotspot(ops=1.5)"));
        assertEquals("parameter mean is given twice", error("normal(mean=0.1, mean=0.2)"));
        assertEquals("'0.5' is not key=value", error("normal(0.5)"));
        assertEquals("parameter mean needs a decimal number, got 'nan'", error("normal(mean=NaN)"));
        assertEquals("is not a distribution expression: name or name(key=value, ...)", error("normal(mean=0.5"));
        assertEquals("is not a distribution expression: name or name(key=value, ...)", error(""));
        assertEquals("puts no probability on [0, 1) (the key space)", error("normal(mean=40, stddev=0.1)"));
    }

    private static String error(String text) {
        return assertThrows(IllegalArgumentException.class, () -> KeyDistributions.parse(text))
                .getMessage();
    }
}
