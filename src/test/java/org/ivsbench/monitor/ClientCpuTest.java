package org.ivsbench.monitor;

import java.lang.management.ManagementFactory;

import com.sun.management.OperatingSystemMXBean;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ClientCpuTest {

    @Test
    void theFirstSampleIsEmptyAndWorkOfThisJvmShowsInTheNext() {
        ClientCpu cpu = new ClientCpu();
        assertNull(cpu.sample().get(ClientCpu.COLUMN), "no interval yet");
        // Burn until the JVM's own CPU clock has advanced (bounded by CPU progress, not by a wall-clock limit).
        OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long until = os.getProcessCpuTime() + 50_000_000L;
        long x = 0;
        while (os.getProcessCpuTime() < until) {
            x += Long.numberOfTrailingZeros(x + 1);
        }
        Double pct = cpu.sample().get(ClientCpu.COLUMN);
        assertTrue(pct != null && pct > 0, "client.cpu_pct " + pct + " (" + x + ")");
    }
}
