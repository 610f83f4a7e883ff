package org.ivsbench.metrics;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** HOST:PORT for the metrics endpoint ({@code [::1]:9464} for IPv6; port 0: any free port). */
public record ListenAddress(String host, int port) {

    /** Parses {@code text}; the exception's message says what is wrong with it (the caller names the option). */
    public static ListenAddress parse(String text) {
        String host;
        String port;
        if (text.startsWith("[")) {
            int close = text.indexOf("]:");
            if (close < 0) {
                throw new IllegalArgumentException(
                        "'" + text + "' is not HOST:PORT (IPv6 hosts go in brackets: [::1]:9464)");
            }
            host = text.substring(1, close);
            port = text.substring(close + 2);
        } else {
            int colon = text.lastIndexOf(':');
            if (colon < 0 || text.indexOf(':') != colon) {
                throw new IllegalArgumentException(
                        "'" + text + "' is not HOST:PORT (e.g. 127.0.0.1:9464; IPv6 as [::1]:9464)");
            }
            host = text.substring(0, colon);
            port = text.substring(colon + 1);
        }
        if (host.isBlank()) {
            throw new IllegalArgumentException("'" + text + "' has no host (0.0.0.0 listens on every interface)");
        }
        int number;
        try {
            number = Integer.parseInt(port);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' has port '" + port + "', which is not a number");
        }
        if (number < 0 || number > 65535) {
            throw new IllegalArgumentException("'" + text + "' has port " + number + ", outside 0..65535");
        }
        return new ListenAddress(host, number);
    }

    /** The host's address; the message names the host when it does not resolve. */
    InetAddress address() {
        try {
            return InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("host '" + host + "' is unknown");
        }
    }
}
