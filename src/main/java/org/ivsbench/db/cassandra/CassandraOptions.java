package org.ivsbench.db.cassandra;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;

import org.ivsbench.db.TargetException;

/**
 * The Cassandra target's settings from {@code <targetOptions>}. Names are matched without regard to case; an
 * unknown name or a bad value is an error naming it, because a silently ignored option would make a run measure
 * something other than what its config says.
 *
 * <ul>
 *   <li>{@code readConsistency}, {@code writeConsistency}: ONE (default, as YCSB's Cassandra binding), TWO,
 *       THREE, QUORUM, ALL, LOCAL_ONE, LOCAL_QUORUM, EACH_QUORUM, ANY (writes only).</li>
 *   <li>{@code serialConsistency}: SERIAL (default) or LOCAL_SERIAL: the Paxos round of a conditional extend.</li>
 *   <li>{@code replicationFactor}: 1 (default) ..: SimpleStrategy's factor when the benchmark creates a
 *       keyspace (a fresh database); an existing keyspace keeps its own.</li>
 *   <li>{@code extendWrite}: plain (default) | conditional: how a CLIENT extend writes the grown value back
 *       (see {@link CassandraSession}).</li>
 *   <li>{@code requestTimeoutMs}: the driver's per-request timeout (default 12000; the driver's own default of
 *       2 s is shorter than a large value's write can take on a busy node).</li>
 * </ul>
 */
record CassandraOptions(
        ConsistencyLevel readConsistency,
        ConsistencyLevel writeConsistency,
        ConsistencyLevel serialConsistency,
        int replicationFactor,
        ExtendWrite extendWrite,
        long requestTimeoutMs) {

    static final String READ_CONSISTENCY = "readConsistency";
    static final String WRITE_CONSISTENCY = "writeConsistency";
    static final String SERIAL_CONSISTENCY = "serialConsistency";
    static final String REPLICATION_FACTOR = "replicationFactor";
    static final String EXTEND_WRITE = "extendWrite";
    static final String REQUEST_TIMEOUT_MS = "requestTimeoutMs";

    static final Set<String> NAMES = Set.of(
            READ_CONSISTENCY,
            WRITE_CONSISTENCY,
            SERIAL_CONSISTENCY,
            REPLICATION_FACTOR,
            EXTEND_WRITE,
            REQUEST_TIMEOUT_MS);

    static final CassandraOptions DEFAULTS = new CassandraOptions(
            DefaultConsistencyLevel.ONE,
            DefaultConsistencyLevel.ONE,
            DefaultConsistencyLevel.SERIAL,
            1,
            ExtendWrite.PLAIN,
            12_000);

    private static final List<String> READ_LEVELS =
            List.of("ONE", "TWO", "THREE", "QUORUM", "ALL", "LOCAL_ONE", "LOCAL_QUORUM", "EACH_QUORUM");

    /** How a CLIENT extend writes back the value it read and grew. */
    enum ExtendWrite {
        /** A plain UPDATE: last write wins, as YCSB-IVS's read-append-write. */
        PLAIN,
        /** A lightweight transaction {@code UPDATE ... IF field = <value read>}: a lost race is detected. */
        CONDITIONAL
    }

    static CassandraOptions parse(Map<String, String> options) throws TargetException {
        ConsistencyLevel read = DEFAULTS.readConsistency;
        ConsistencyLevel write = DEFAULTS.writeConsistency;
        ConsistencyLevel serial = DEFAULTS.serialConsistency;
        int replication = DEFAULTS.replicationFactor;
        ExtendWrite extendWrite = DEFAULTS.extendWrite;
        long timeout = DEFAULTS.requestTimeoutMs;
        for (Map.Entry<String, String> e : options.entrySet()) {
            String name = canonicalName(e.getKey());
            String value = e.getValue() == null ? "" : e.getValue().trim();
            switch (name) {
                case READ_CONSISTENCY -> read = level(name, value, READ_LEVELS);
                case WRITE_CONSISTENCY -> write = level(name, value, concat(READ_LEVELS, "ANY"));
                case SERIAL_CONSISTENCY -> serial = level(name, value, List.of("SERIAL", "LOCAL_SERIAL"));
                case REPLICATION_FACTOR -> replication = (int) positive(name, value, 100);
                case EXTEND_WRITE -> extendWrite = extendWrite(value);
                case REQUEST_TIMEOUT_MS -> timeout = positive(name, value, 3_600_000);
                default -> throw new IllegalStateException(name);
            }
        }
        return new CassandraOptions(read, write, serial, replication, extendWrite, timeout);
    }

    private static List<String> concat(List<String> list, String more) {
        List<String> all = new ArrayList<>(list);
        all.add(more);
        return all;
    }

    private static String canonicalName(String given) throws TargetException {
        for (String name : NAMES) {
            if (name.equalsIgnoreCase(given)) {
                return name;
            }
        }
        throw new TargetException("unknown Cassandra option '" + given + "' (known: "
                + String.join(", ", NAMES.stream().sorted().toList()) + ")");
    }

    private static ConsistencyLevel level(String name, String value, List<String> allowed) throws TargetException {
        String upper = value.toUpperCase(Locale.ROOT);
        if (!allowed.contains(upper)) {
            throw new TargetException(
                    "bad Cassandra option " + name + "='" + value + "' (" + String.join(", ", allowed) + ")");
        }
        return DefaultConsistencyLevel.valueOf(upper);
    }

    private static long positive(String name, String value, long max) throws TargetException {
        try {
            long n = Long.parseLong(value);
            if (n >= 1 && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new TargetException("bad Cassandra option " + name + "='" + value + "' (a whole number, 1.." + max + ")");
    }

    private static ExtendWrite extendWrite(String value) throws TargetException {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "plain" -> ExtendWrite.PLAIN;
            case "conditional" -> ExtendWrite.CONDITIONAL;
            default ->
                throw new TargetException("bad Cassandra option extendWrite='" + value + "' (plain, conditional)");
        };
    }
}
