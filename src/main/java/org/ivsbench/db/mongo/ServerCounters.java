package org.ivsbench.db.mongo;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.bson.Document;

import org.ivsbench.db.CounterKind;

/**
 * Picks the counters the monitor wants out of a serverStatus reply and flattens them to one name each:
 * the path of the value with '.' between levels, and spaces inside WiredTiger's names replaced by '_'
 * (WiredTiger's "bytes read into cache" under wiredTiger.cache becomes
 * {@code wiredTiger.cache.bytes_read_into_cache}). Only numeric values that the server reports are kept, so
 * a server without a section (the stand-in has no opcounters and no wiredTiger) yields no names for it.
 *
 * <p>This list is already the monitor's choice for MongoDB: {@link MongoKind} offers all of {@link #DEFAULTS} as
 * the default counters, so the two cannot drift apart.
 */
final class ServerCounters {

    /** Monotonic counters: the monitor reports their per-interval deltas. */
    private static final List<List<String>> COUNTERS = List.of(
            List.of("opcounters", "insert"),
            List.of("opcounters", "query"),
            List.of("opcounters", "update"),
            List.of("opcounters", "delete"),
            List.of("opcounters", "getmore"),
            List.of("opcounters", "command"),
            List.of("network", "bytesIn"),
            List.of("network", "bytesOut"),
            List.of("network", "numRequests"),
            List.of("wiredTiger", "cache", "bytes read into cache"),
            List.of("wiredTiger", "cache", "bytes written from cache"),
            List.of("wiredTiger", "cache", "pages read into cache"),
            List.of("wiredTiger", "cache", "pages written from cache"),
            List.of("wiredTiger", "cache", "pages requested from the cache"),
            List.of("wiredTiger", "cache", "modified pages evicted"),
            List.of("wiredTiger", "cache", "unmodified pages evicted"),
            List.of("wiredTiger", "cache", "pages evicted by application threads"),
            List.of("wiredTiger", "cache", "eviction worker thread evicting pages"),
            List.of("wiredTiger", "cache", "pages queued for urgent eviction"),
            List.of("wiredTiger", "block-manager", "bytes read"),
            List.of("wiredTiger", "block-manager", "bytes written"));

    /** Levels reported as they are. */
    private static final List<List<String>> GAUGES = List.of(
            List.of("connections", "current"),
            List.of("mem", "resident"),
            List.of("wiredTiger", "cache", "bytes currently in the cache"),
            List.of("wiredTiger", "cache", "maximum bytes configured"),
            List.of("wiredTiger", "cache", "tracked dirty bytes in the cache"),
            // operations queued for a lock, and the clients holding one: the first sign of lock contention
            List.of("globalLock", "currentQueue", "total"),
            List.of("globalLock", "currentQueue", "readers"),
            List.of("globalLock", "currentQueue", "writers"),
            List.of("globalLock", "activeClients", "readers"),
            List.of("globalLock", "activeClients", "writers"),
            // WiredTiger's read/write tickets (MongoDB 6.0): available near 0 means operations wait for one
            List.of("wiredTiger", "concurrentTransactions", "read", "out"),
            List.of("wiredTiger", "concurrentTransactions", "read", "available"),
            List.of("wiredTiger", "concurrentTransactions", "write", "out"),
            List.of("wiredTiger", "concurrentTransactions", "write", "available"),
            // the same tickets where MongoDB 7.0 and later report them
            List.of("queues", "execution", "read", "out"),
            List.of("queues", "execution", "read", "available"),
            List.of("queues", "execution", "write", "out"),
            List.of("queues", "execution", "write", "available"));

    static final Set<String> GAUGE_NAMES =
            Set.copyOf(GAUGES.stream().map(ServerCounters::flatName).toList());

    /** Every flat name {@link #from} can produce, with its kind. */
    static final Map<String, CounterKind> DEFAULTS = defaults();

    private ServerCounters() {}

    private static Map<String, CounterKind> defaults() {
        Map<String, CounterKind> all = new LinkedHashMap<>();
        for (List<String> path : COUNTERS) {
            all.put(flatName(path), CounterKind.COUNTER);
        }
        for (List<String> path : GAUGES) {
            all.put(flatName(path), CounterKind.GAUGE);
        }
        return Collections.unmodifiableMap(all);
    }

    static Map<String, Double> from(Document serverStatus) {
        Map<String, Double> out = new LinkedHashMap<>();
        for (List<String> path : COUNTERS) {
            put(out, serverStatus, path);
        }
        for (List<String> path : GAUGES) {
            put(out, serverStatus, path);
        }
        return out;
    }

    static String flatName(List<String> path) {
        return String.join(".", path).replace(' ', '_');
    }

    private static void put(Map<String, Double> out, Document root, List<String> path) {
        Object value = at(root, path);
        if (value instanceof Number n) {
            out.put(flatName(path), n.doubleValue());
        }
    }

    static Object at(Document root, List<String> path) {
        Object node = root;
        for (String step : path) {
            if (!(node instanceof Document d)) {
                return null;
            }
            node = d.get(step);
        }
        return node;
    }
}
