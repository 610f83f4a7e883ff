package org.ivsbench.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Map;

import org.ivsbench.config.DatabaseType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MonitorOverheadTest {

    @Test
    void dbUrlNamesTheTargetType() {
        assertEquals(DatabaseType.MARIADB, MonitorOverhead.typeOf("jdbc:mariadb://127.0.0.1:3306/x"));
        assertEquals(DatabaseType.MYSQL, MonitorOverhead.typeOf("JDBC:MYSQL://h/x"));
        assertEquals(DatabaseType.MONGODB, MonitorOverhead.typeOf("mongodb://localhost:27017"));
        assertThrows(IllegalArgumentException.class, () -> MonitorOverhead.typeOf("jdbc:sqlite:x.db"));
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
        DbCounterSampler db = new DbCounterSampler(costly, CounterSelection.DEFAULT);
        MonitorOverhead.Result r = MonitorOverhead.measure(db::sample, 20, 0, dir.resolve("m.csv"));
        assertTrue(r.cpuUsPerSample() >= 1900, r.toString());
    }
}
