package org.ivsbench.monitor;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import org.ivsbench.db.TargetKinds;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DbCounterSamplerTest {
    private static final CounterSelection MARIADB_DEFAULTS = CounterSelection.defaults(TargetKinds.of("MARIADB"));

    /** A scripted server: each snapshot() returns the next map, or throws for a null entry. */
    private static CounterSource scripted(List<Map<String, Double>> snapshots) {
        return new CounterSource() {
            int next;

            @Override
            public Map<String, Double> snapshot() {
                Map<String, Double> m = snapshots.get(next++);
                if (m == null) {
                    throw new IllegalStateException("connection lost");
                }
                return m;
            }

            @Override
            public boolean isGauge(String name) {
                return Set.of("Threads_connected", "Innodb_buffer_pool_pages_free")
                        .contains(name);
            }
        };
    }

    private static Map<String, Double> m(Object... kv) {
        Map<String, Double> m = new HashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], ((Number) kv[i + 1]).doubleValue());
        }
        return m;
    }

    @Test
    void countersAreDeltasGaugesAreValues() {
        DbCounterSampler s = new DbCounterSampler(
                scripted(List.of(
                        m("Com_select", 100, "Threads_connected", 3, "Innodb_buffer_pool_pages_free", 900),
                        m("Com_select", 175, "Threads_connected", 5, "Innodb_buffer_pool_pages_free", 850),
                        m("Com_select", 175, "Threads_connected", 4, "Innodb_buffer_pool_pages_free", 800))),
                MARIADB_DEFAULTS);
        Map<String, Double> first = s.sample();
        assertNull(first.get("db.Com_select"), "no delta before a baseline");
        assertEquals(3.0, first.get("db.Threads_connected"));
        Map<String, Double> second = s.sample();
        assertEquals(75.0, second.get("db.Com_select"));
        assertEquals(5.0, second.get("db.Threads_connected"));
        assertEquals(850.0, second.get("db.Innodb_buffer_pool_pages_free"));
        Map<String, Double> third = s.sample();
        assertEquals(0.0, third.get("db.Com_select"), "an idle interval is 0, not empty");
        assertEquals(4.0, third.get("db.Threads_connected"));
    }

    @Test
    void aFailedReadLeavesCellsEmptyAndDoesNotStretchTheNextDelta() {
        DbCounterSampler s = new DbCounterSampler(
                scripted(Arrays.asList(
                        m("Com_select", 10), m("Com_select", 20), null, m("Com_select", 50), m("Com_select", 53))),
                MARIADB_DEFAULTS);
        s.sample();
        assertEquals(10.0, s.sample().get("db.Com_select"));
        Map<String, Double> failed = s.sample();
        assertTrue(failed.containsKey("db.Com_select"));
        assertNull(failed.get("db.Com_select"));
        assertNull(s.sample().get("db.Com_select"), "50 - 20 spans two intervals: not reported");
        assertEquals(3.0, s.sample().get("db.Com_select"));
    }

    @Test
    void aCounterGoingBackwardsIsEmptyNotNegative() {
        DbCounterSampler s = new DbCounterSampler(
                scripted(List.of(m("Questions", 1000), m("Questions", 4), m("Questions", 9))), MARIADB_DEFAULTS);
        s.sample();
        assertNull(s.sample().get("db.Questions"));
        assertEquals(5.0, s.sample().get("db.Questions"));
    }

    @Test
    void defaultSubsetKeepsRocksdbAndDropsTheRest() {
        Map<String, Double> snap = m(
                "Rocksdb_block_cache_miss",
                1,
                "Rocksdb_stall_micros",
                2,
                "Innodb_buffer_pool_reads",
                3,
                "Ssl_accepts",
                4,
                "Com_show_status",
                5);
        Map<String, Double> def = new DbCounterSampler(scripted(List.of(snap)), MARIADB_DEFAULTS).sample();
        assertTrue(def.containsKey("db.Rocksdb_block_cache_miss"));
        assertTrue(def.containsKey("db.Rocksdb_stall_micros"));
        assertTrue(def.containsKey("db.Innodb_buffer_pool_reads"));
        assertFalse(def.containsKey("db.Ssl_accepts"));
        assertEquals(
                List.of("db.Innodb_buffer_pool_reads", "db.Rocksdb_block_cache_miss", "db.Rocksdb_stall_micros"),
                List.copyOf(def.keySet()),
                "sorted by name, whatever order the server used");
        Map<String, Double> all = new DbCounterSampler(scripted(List.of(snap)), CounterSelection.ALL).sample();
        assertEquals(5, all.size());
    }
}
