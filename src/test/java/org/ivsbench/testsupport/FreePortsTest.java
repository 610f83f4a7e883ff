package org.ivsbench.testsupport;

import java.net.InetAddress;
import java.net.ServerSocket;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** The ports handed to test servers lie below the ephemeral range, and one can listen there. */
class FreePortsTest {
    @Test
    void aPortBelowTheEphemeralRangeThatCanBeBound() throws Exception {
        int start = FreePorts.ephemeralStart();
        for (int i = 0; i < 20; i++) {
            int port = FreePorts.belowEphemeral();
            assertTrue(port >= 20000 && port < start, port + " in [20000, " + start + ")");
            try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                assertTrue(s.isBound());
            }
        }
    }
}
