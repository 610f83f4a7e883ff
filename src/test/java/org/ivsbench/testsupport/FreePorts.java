package org.ivsbench.testsupport;

import java.io.BufferedReader;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A TCP port for a server a test starts itself (a private MariaDB instance, a fresh copy), chosen below the
 * system's ephemeral range. A port that {@code new ServerSocket(0)} found free lies inside that range, and between
 * its close and the server's bind the system may hand it to any outgoing connection on the box as its local port;
 * the server then fails with "Address already in use". Ports below the range are never handed out that way, so
 * only another listener can take one, and the check here sees every listener present now.
 */
public final class FreePorts {
    /** The lowest port tried: above the registered services a Debian box runs by default. */
    private static final int LOW = 20000;

    private FreePorts() {}

    /** A port in [20000, the ephemeral range's start) that nothing listens on now, on loopback or the wildcard. */
    public static int belowEphemeral() throws IOException {
        int high = ephemeralStart();
        if (high - LOW < 100) {
            throw new IOException("the ephemeral port range starts at " + high + ": no room below it for test ports");
        }
        for (int attempt = 0; attempt < 200; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(LOW, high);
            if (bindable(new InetSocketAddress(InetAddress.getLoopbackAddress(), port))
                    && bindable(new InetSocketAddress(port))) {
                return port;
            }
        }
        throw new IOException("no free port in [" + LOW + ", " + high + ") after 200 attempts");
    }

    /** The first port of /proc/sys/net/ipv4/ip_local_port_range (32768 where the file is absent). */
    static int ephemeralStart() throws IOException {
        Path range = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
        if (!Files.exists(range)) {
            return 32768;
        }
        // Read as lines: /proc files report size 0, and a read sized by that returned only the first byte.
        try (BufferedReader r = Files.newBufferedReader(range)) {
            return Integer.parseInt(r.readLine().trim().split("\\s+")[0]);
        }
    }

    private static boolean bindable(InetSocketAddress address) {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(false);
            s.bind(address, 1);
            return true;
        } catch (IOException inUse) {
            return false;
        }
    }
}
