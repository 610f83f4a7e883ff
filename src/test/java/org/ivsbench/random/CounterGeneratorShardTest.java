package org.ivsbench.random;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The insert counters of n shards hand out disjoint key numbers that together are one driver's. */
class CounterGeneratorShardTest {
    @Test
    void shardsInsertDisjointKeysThatTogetherAreOneDriversKeys() {
        int n = 3;
        TreeSet<Long> all = new TreeSet<>();
        List<CounterGenerator> shards = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            shards.add(new CounterGenerator(1000, i, n));
        }
        for (int k = 0; k < 50; k++) {
            for (CounterGenerator c : shards) {
                assertEquals(true, all.add(c.next()), "a key handed out twice");
            }
        }
        CounterGenerator one = new CounterGenerator(1000);
        for (long expected : all) {
            assertEquals(one.next(), expected);
        }
    }

    @Test
    void lastValueFollowsTheShardsOwnAcknowledgedInserts() {
        CounterGenerator c = new CounterGenerator(1000, 1, 4);
        assertEquals(999, c.lastValue());
        long a = c.next();
        long b = c.next();
        assertEquals(1001, a);
        assertEquals(1005, b);
        c.acknowledge(b);
        assertEquals(999, c.lastValue(), "1001 is still in flight");
        c.acknowledge(a);
        assertEquals(1005, c.lastValue());
    }
}
