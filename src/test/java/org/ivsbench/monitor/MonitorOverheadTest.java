package org.ivsbench.monitor;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.db.TargetKinds;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MonitorOverheadTest {

    @Test
    void dbUrlNamesTheTargetKind() {
        assertEquals(
                "MARIADB",
                MonitorOverhead.kindOf("jdbc:mariadb://127.0.0.1:3306/x")
                        .names()
                        .get(0));
        assertEquals(
                "MARIADB", MonitorOverhead.kindOf("JDBC:MYSQL://h/x").names().get(0));
        assertEquals(
                "MONGODB",
                MonitorOverhead.kindOf("mongodb://localhost:27017").names().get(0));
        // An embedded database has no server whose overhead could be measured.
        assertThrows(IllegalArgumentException.class, () -> MonitorOverhead.kindOf("jdbc:sqlite:x.db"));
    }

    /** The per-sample figure includes whatever the counter read costs the sampling thread. */
    @Test
    void counterReadCpuIsInTheFigure(@TempDir Path dir) throws Exception {
        CounterSource costly = new CounterSource() {
            @Override
            public Map<String, Double> snapshot() {
                long end = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() + 2_000_000;
                double x = 0;
                while (ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() < end) {
                    x += Math.sqrt(x + 1);
                }
                return Map.of("Com_select", x);
            }

            @Override
            public boolean isGauge(String name) {
                return false;
            }
        };
        DbCounterSampler db = new DbCounterSampler(costly, CounterSelection.defaults(TargetKinds.of("MARIADB")));
        MonitorOverhead.Result r = MonitorOverhead.measure(db::sample, 20, 0, dir.resolve("m.csv"));
        assertTrue(r.cpuUsPerSample() >= 1900, r.toString());
    }
}
