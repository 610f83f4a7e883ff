package org.ivsbench.random;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RandomValuesTest {
    @Test
    void hasExactLengthAndOnlyPrintableAscii() {
        SplittableRandom r = new SplittableRandom(41);
        for (int length : new int[] {0, 1, 9, 10, 11, 19, 20, 21, 1000, 1 << 20}) {
            String s = RandomValues.ascii(r, length);
            assertEquals(length, s.length());
            assertEquals(length, s.getBytes(StandardCharsets.UTF_8).length, "one byte per character");
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                assertTrue(c >= ' ' && c <= '~', "unprintable char " + (int) c + " at " + i);
            }
        }
        assertThrows(IllegalArgumentException.class, () -> RandomValues.ascii(r, -1));
    }

    @Test
    void isDeterministicForASeedAndDiffersAcrossSeeds() {
        String a = RandomValues.ascii(new SplittableRandom(42), 10_007);
        assertEquals(a, RandomValues.ascii(new SplittableRandom(42), 10_007));
        assertArrayEquals(
                a.getBytes(StandardCharsets.US_ASCII), RandomValues.asciiBytes(new SplittableRandom(42), 10_007));
        assertNotEquals(a, RandomValues.ascii(new SplittableRandom(43), 10_007));
    }

    @Test
    void usesAllSymbolsEvenly() {
        String s = RandomValues.ascii(new SplittableRandom(44), 640_000);
        int[] counts = new int[128];
        for (int i = 0; i < s.length(); i++) {
            counts[s.charAt(i)]++;
        }
        int symbols = 0;
        double chi2 = 0;
        double expected = s.length() / 64.0;
        for (int c : counts) {
            if (c > 0) {
                symbols++;
                chi2 += (c - expected) * (c - expected) / expected;
            }
        }
        assertEquals(64, symbols);
        // 63 degrees of freedom: the 99.9th percentile is about 104.
        assertTrue(chi2 < 104, "chi-square " + chi2);
    }

    @Test
    void fillWritesOnlyTheRequestedSlice() {
        byte[] buf = new byte[30];
        RandomValues.fill(new SplittableRandom(45), buf, 7, 13);
        for (int i = 0; i < buf.length; i++) {
            boolean inside = i >= 7 && i < 20;
            assertEquals(inside, buf[i] != 0, "byte " + i);
        }
        assertThrows(IndexOutOfBoundsException.class, () -> RandomValues.fill(new SplittableRandom(1), buf, 25, 6));
    }

    @Test
    void uniformIntCoversTheInclusiveRange() {
        SplittableRandom r = new SplittableRandom(47);
        boolean[] seen = new boolean[5];
        for (int i = 0; i < 1000; i++) {
            int v = RandomValues.uniformInt(r, 3, 7);
            assertTrue(v >= 3 && v <= 7);
            seen[v - 3] = true;
        }
        for (boolean b : seen) {
            assertTrue(b);
        }
        assertEquals(Integer.MAX_VALUE, RandomValues.uniformInt(r, Integer.MAX_VALUE, Integer.MAX_VALUE));
        assertThrows(IllegalArgumentException.class, () -> RandomValues.uniformInt(r, 2, 1));
    }
}
