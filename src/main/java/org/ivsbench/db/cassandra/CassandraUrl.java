package org.ivsbench.db.cassandra;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * {@code cassandra://host[:port][,host[:port]...]/keyspace[?dc=datacenter]}: the contact points, the keyspace
 * the tables live in, and the local datacenter the driver routes to (it refuses to guess one when contact points
 * are given). The port defaults to 9042 (the native protocol), the datacenter to datacenter1 (what a node with
 * SimpleSnitch calls its own).
 */
record CassandraUrl(List<InetSocketAddress> contactPoints, String keyspace, String localDatacenter) {
    static final String PREFIX = "cassandra://";
    static final String EXAMPLE = "cassandra://<host>[:<port>]/<keyspace>[?dc=<datacenter>]";
    static final int DEFAULT_PORT = 9042;
    static final String DEFAULT_DC = "datacenter1";

    /** Unquoted CQL names: a letter first, at most 48 characters (Cassandra's own limit for keyspace names). */
    static final Pattern NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_]{0,47}");

    CassandraUrl {
        contactPoints = List.copyOf(contactPoints);
    }

    /** Parses the URL; the message of the exception says what is wrong and how the URL should look. */
    static CassandraUrl parse(String url) {
        if (url == null || !url.startsWith(PREFIX)) {
            throw new IllegalArgumentException("want " + EXAMPLE);
        }
        String rest = url.substring(PREFIX.length());
        String query = "";
        int q = rest.indexOf('?');
        if (q >= 0) {
            query = rest.substring(q + 1);
            rest = rest.substring(0, q);
        }
        int slash = rest.indexOf('/');
        if (slash < 0) {
            throw new IllegalArgumentException("names no keyspace (want " + EXAMPLE + ")");
        }
        String keyspace = rest.substring(slash + 1);
        if (!NAME.matcher(keyspace).matches()) {
            throw new IllegalArgumentException("keyspace '" + keyspace + "' is not a valid name (a letter, then"
                    + " letters, digits or '_', at most 48)");
        }
        List<InetSocketAddress> points = new ArrayList<>();
        for (String hostPort : rest.substring(0, slash).split(",")) {
            points.add(address(hostPort.trim()));
        }
        String dc = DEFAULT_DC;
        for (String pair : query.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name = eq < 0 ? pair : pair.substring(0, eq);
            String value = eq < 0 ? "" : pair.substring(eq + 1);
            if (!"dc".equals(name) || value.isBlank()) {
                throw new IllegalArgumentException("unknown or empty parameter '" + pair + "' (only dc=<datacenter>;"
                        + " other settings go in <targetOptions>)");
            }
            dc = value;
        }
        return new CassandraUrl(points, keyspace, dc);
    }

    private static InetSocketAddress address(String hostPort) {
        if (hostPort.isEmpty()) {
            throw new IllegalArgumentException("names no host (want " + EXAMPLE + ")");
        }
        String host = hostPort;
        int port = DEFAULT_PORT;
        int colon = hostPort.lastIndexOf(':');
        if (colon >= 0 && hostPort.lastIndexOf(']') < colon) {
            host = hostPort.substring(0, colon);
            try {
                port = Integer.parseInt(hostPort.substring(colon + 1));
            } catch (NumberFormatException e) {
                port = -1;
            }
            if (port <= 0 || port > 65535) {
                throw new IllegalArgumentException("bad port in '" + hostPort + "'");
            }
        }
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        // Unresolved: the driver resolves contact points itself when it connects, not at config time.
        return InetSocketAddress.createUnresolved(host, port);
    }

    /** The same server and settings with another keyspace. */
    CassandraUrl withKeyspace(String name) {
        return new CassandraUrl(contactPoints, name, localDatacenter);
    }
}
