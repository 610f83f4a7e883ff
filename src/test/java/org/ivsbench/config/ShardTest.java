package org.ivsbench.config;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ShardTest {
    @Test
    void sharesAreLargestRemainderAndSumToTheTotal() {
        for (int n = 1; n <= 9; n++) {
            for (long total = 0; total <= 40; total++) {
                long sum = 0;
                for (int i = 0; i < n; i++) {
                    long share = new Shard(i, n).share(total);
                    long owned = 0;
                    for (long item = 0; item < total; item++) {
                        owned += item % n == i ? 1 : 0;
                    }
                    assertEquals(owned, share, "shard " + i + "/" + n + " of " + total);
                    assertEquals(total / n, share, 1.0);
                    sum += share;
                }
                assertEquals(total, sum);
            }
        }
    }

    @Test
    void theViewSplitsCountRateAndActiveTerminals() {
        PhaseConfig p = PhaseConfig.builder(0)
                .count(10)
                .rate(RateSpec.open(1000))
                .activeTerminals(5)
                .build();
        PhaseConfig v = new Shard(2, 3).view(p);
        assertEquals(3, v.count());
        assertEquals(1, v.activeTerminals());
        assertEquals(1000 / 3.0, v.rate().opsPerSecond(), 1e-9);
        assertEquals(p, Shard.WHOLE.view(p));
    }

    @Test
    void parsesIOverNAndRejectsTheRest() {
        assertEquals(new Shard(1, 4), Shard.parse("1/4"));
        for (String bad : new String[] {"4/4", "-1/2", "1", "a/b", "1/0", "1/2/3", ""}) {
            assertThrows(IllegalArgumentException.class, () -> Shard.parse(bad), bad);
        }
    }
}
