package org.ivsbench.bench.ycsbivs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.LongConsumer;

import org.ivsbench.bench.ycsbivs.procedures.Procedures;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.PhaseConfig;
import org.ivsbench.config.TargetConfig;
import org.ivsbench.config.TransactionTypeConfig;
import org.ivsbench.db.ExtendMethod;
import org.ivsbench.db.ForwardingTarget;
import org.ivsbench.db.Record;
import org.ivsbench.db.Session;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;
import org.ivsbench.db.Targets;
import org.ivsbench.op.OpResult;
import org.ivsbench.testsupport.TestServers;

/** Configs, targets and table measurements for the ycsbivs integration tests (real servers only). */
final class Fixtures {
    static final List<String> TARGETS = List.of("sqlite", "innodb", "rocksdb");

    private Fixtures() {}

    static TargetConfig targetConfig(String name) {
        return switch (name) {
            case "sqlite" -> {
                try {
                    Path dir = Files.createTempDirectory("ivs-ycsbivs");
                    dir.toFile().deleteOnExit();
                    yield TestServers.sqlite(dir.resolve("test.db"));
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            }
            case "innodb", "rocksdb" -> TestServers.mariadb();
            default -> throw new IllegalArgumentException(name);
        };
    }

    static Target open(String name) throws TargetException {
        return Targets.open(targetConfig(name));
    }

    /** Parameters for a target name: the engine for MariaDB, nothing for SQLite. */
    static Map<String, String> params(String targetName, String table, Map<String, String> extra) {
        Map<String, String> p = new HashMap<>(extra);
        p.put("table", table);
        if (!targetName.equals("sqlite")) {
            p.put("engine", targetName.equals("rocksdb") ? "RocksDB" : "InnoDB");
        }
        return p;
    }

    static PhaseConfig phase(String distribution, long count) {
        List<Double> weights = new ArrayList<>();
        for (int i = 0; i < Procedures.names().size(); i++) {
            weights.add(i == 0 ? 100.0 : 0.0);
        }
        return PhaseConfig.builder(0)
                .name("phase")
                .count(count)
                .weights(weights)
                .parameters(Map.of("distribution", distribution))
                .build();
    }

    /** All types in Procedures.names() order, so type index = position in that list. */
    static BenchmarkConfig config(
            TargetConfig target, Map<String, String> parameters, long seed, int loaderThreads, PhaseConfig... phases) {
        List<TransactionTypeConfig> types = Procedures.names().stream()
                .map(n -> new TransactionTypeConfig(n, 0, 0))
                .toList();
        return BenchmarkConfig.builder(target)
                .loaderThreads(loaderThreads)
                .randomSeed(seed)
                .batchSize(100)
                .transactionTypes(types)
                .phases(phases.length == 0 ? List.of(phase("uniform", 1)) : List.of(phases))
                .parameters(parameters)
                .build();
    }

    static int typeIndex(String name) {
        return Procedures.names().indexOf(name);
    }

    /** Sum of the lengths of every field value in the table, and the longest one. */
    static long[] volumeAndMax(Target target, String table) throws TargetException {
        long[] result = new long[2];
        target.forEachRecord(table, r -> r.fields().values().forEach(v -> {
            long len = v == null ? 0 : v.length();
            result[0] += len;
            result[1] = Math.max(result[1], len);
        }));
        return result;
    }

    static String checksum(Target target, String table) throws TargetException {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            target.forEachRecord(table, r -> {
                digest.update(r.key().getBytes(StandardCharsets.US_ASCII));
                r.fields().forEach((f, v) -> {
                    digest.update(f.getBytes(StandardCharsets.US_ASCII));
                    digest.update(String.valueOf(v).getBytes(StandardCharsets.US_ASCII));
                });
            });
            return HexFormat.of().formatHex(digest.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * A real target whose sessions also report each call (type, key, field, suffix or value hash) to a
     * listener: a decorator for observing what a terminal sent, not a stand-in for the database.
     */
    static Target recording(Target target, Consumer<String> calls) {
        return new RecordingTarget(target, calls);
    }

    private static final class RecordingTarget extends ForwardingTarget {
        private final Consumer<String> calls;

        RecordingTarget(Target t, Consumer<String> calls) {
            super(t);
            this.calls = calls;
        }

        @Override
        public Session openSession() throws TargetException {
            return new RecordingSession(target.openSession(), calls);
        }
    }

    private record RecordingSession(Session s, Consumer<String> calls) implements Session {
        @Override
        public OpResult read(String table, String key, List<String> fields, Map<String, String> out)
                throws TargetException {
            calls.accept("read " + key + " " + fields);
            return s.read(table, key, fields, out);
        }

        @Override
        public OpResult scan(
                String table, String startKey, int count, List<String> fields, List<Map<String, String>> out)
                throws TargetException {
            calls.accept("scan " + startKey + " " + count + " " + fields);
            return s.scan(table, startKey, count, fields, out);
        }

        @Override
        public OpResult update(String table, String key, Map<String, String> values) throws TargetException {
            calls.accept("update " + key + " " + values);
            return s.update(table, key, values);
        }

        @Override
        public OpResult insert(String table, String key, Map<String, String> values) throws TargetException {
            calls.accept("insert " + key + " " + values);
            return s.insert(table, key, values);
        }

        @Override
        public OpResult delete(String table, String key) throws TargetException {
            calls.accept("delete " + key);
            return s.delete(table, key);
        }

        @Override
        public OpResult scanBetween(
                String table, String startKey, String endKey, List<String> fields, List<Map<String, String>> out)
                throws TargetException {
            calls.accept("scanBetween " + startKey + " " + endKey);
            return s.scanBetween(table, startKey, endKey, fields, out);
        }

        @Override
        public OpResult deleteRange(String table, String startKey, int count, LongConsumer deleted)
                throws TargetException {
            calls.accept("deleteRange " + startKey + " " + count);
            return s.deleteRange(table, startKey, count, deleted);
        }

        @Override
        public OpResult deleteBetween(String table, String startKey, String endKey, LongConsumer deleted)
                throws TargetException {
            calls.accept("deleteBetween " + startKey + " " + endKey);
            return s.deleteBetween(table, startKey, endKey, deleted);
        }

        @Override
        public OpResult extend(String table, String key, String field, String suffix, long max, ExtendMethod m)
                throws TargetException {
            calls.accept("extend " + key + " " + field + " " + suffix);
            return s.extend(table, key, field, suffix, max, m);
        }

        @Override
        public void insertBatch(String table, List<Record> records) throws TargetException {
            s.insertBatch(table, records);
        }

        @Override
        public void close() {
            s.close();
        }
    }
}
