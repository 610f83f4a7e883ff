package org.ivsbench.experiment;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;

import org.ivsbench.bench.BenchmarkModule;
import org.ivsbench.bench.BenchmarkRegistry;
import org.ivsbench.bench.LoadProgress;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.target.Record;
import org.ivsbench.target.Session;
import org.ivsbench.target.Target;
import org.ivsbench.target.TargetException;

/**
 * The databases the clean-run and the baselines run against: a fresh database (schema) on a server
 * ({@link Target#createDatabase} with drop-first, then {@link Target#withDatabase}; a sibling file for
 * SQLite). The server is the primary's own or a fresh instance ({@link FreshServer}). After its run phase the
 * whole database is dropped.
 */
final class FreshDatabases {
    static final String CLEAN = "ivs_clean";
    static final String AVERAGE = "ivs_average";
    static final String SPREAD = "ivs_spread";

    /** A built database and how long building it took. */
    record Built(Target target, String name, long snapshotMs, long restoreMs) {
    }

    private FreshDatabases() {
    }

    /**
     * Copies the primary's table, record by record in key order, into a fresh database: one streaming pass
     * (forEachRecord) feeding insertBatch in batches of {@code batchSize}. Reading and writing interleave, so
     * the time is split by measurement: restore_ms is the time spent inside insertBatch, snapshot_ms the rest
     * of the copy (reading the primary, building batches).
     */
    static Built cleanCopy(BenchmarkModule module, BenchmarkConfig config, Target primary, Target server,
            String table, int batchSize) throws TargetException {
        Target fresh = open(module, config, server, CLEAN);
        long start = System.nanoTime();
        long[] writeNanos = {0};
        try (Session session = fresh.openSession()) {
            List<Record> batch = new ArrayList<>(batchSize);
            try {
                primary.forEachRecord(table, r -> {
                    batch.add(new Record(r.key(), new LinkedHashMap<>(r.fields())));
                    if (batch.size() >= batchSize) {
                        flush(session, table, batch, writeNanos);
                    }
                });
            } catch (Unchecked e) {
                throw e.cause;
            }
            flush(session, table, batch, writeNanos);
        } catch (TargetException | RuntimeException e) {
            fresh.close();
            throw e;
        }
        long total = System.nanoTime() - start;
        return new Built(fresh, CLEAN, (total - writeNanos[0]) / 1_000_000, writeNanos[0] / 1_000_000);
    }

    private static void flush(Session session, String table, List<Record> batch, long[] writeNanos) {
        if (batch.isEmpty()) {
            return;
        }
        long t = System.nanoTime();
        try {
            session.insertBatch(table, batch);
        } catch (TargetException e) {
            throw new Unchecked(e);
        }
        writeNanos[0] += System.nanoTime() - t;
        batch.clear();
    }

    /**
     * A baseline database loaded by the benchmark's own loader with {@code derived} (its recordcount and
     * fieldlength set by the caller). snapshot_ms is 0 (nothing is read); restore_ms is the load time.
     */
    static Built baseline(BenchmarkConfig derived, Target server, String name, String benchmark)
            throws TargetException, InterruptedException {
        BenchmarkModule module = BenchmarkRegistry.create(benchmark).orElseThrow();
        Target fresh = open(module, derived, server, name);
        long start = System.nanoTime();
        try {
            module.load(derived, fresh, LoadProgress.NONE);
        } catch (TargetException | InterruptedException | RuntimeException e) {
            fresh.close();
            throw e;
        }
        return new Built(fresh, name, 0, (System.nanoTime() - start) / 1_000_000);
    }

    /** Closes a built database and drops it from its server, so no scratch database lingers. */
    static void drop(Target server, Built built) throws TargetException {
        built.target().close();
        server.dropDatabase(built.name());
    }

    private static Target open(BenchmarkModule module, BenchmarkConfig config, Target server, String name)
            throws TargetException {
        server.createDatabase(name, true);
        Target fresh = server.withDatabase(name);
        try {
            module.create(config, fresh);
        } catch (TargetException | RuntimeException e) {
            fresh.close();
            throw e;
        }
        return fresh;
    }

    private static final class Unchecked extends RuntimeException {
        private final TargetException cause;

        Unchecked(TargetException cause) {
            super(cause);
            this.cause = cause;
        }
    }
}
