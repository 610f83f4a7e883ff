package org.ivsbench.experiment;

import org.ivsbench.bench.BenchmarkModule;
import org.ivsbench.bench.BenchmarkRegistry;
import org.ivsbench.bench.LoadProgress;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.db.DatabaseAdmin;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;

/**
 * The databases the clean-run and the baselines run against: a fresh database (schema) on a server
 * ({@link DatabaseAdmin#createDatabase} with drop-first, then {@link DatabaseAdmin#withDatabase}; a sibling
 * file for an embedded database). The server is the primary's own or a fresh instance ({@link FreshServer}). After its run phase the
 * whole database is dropped.
 */
final class FreshDatabases {
    static final String CLEAN = "ivs_clean";
    static final String AVERAGE = "ivs_average";
    static final String SPREAD = "ivs_spread";

    /** A built database and how long building it took. */
    record Built(Target target, String name, long snapshotMs, long restoreMs) {}

    private FreshDatabases() {}

    /**
     * A baseline database loaded by the benchmark's own loader with {@code derived}, the baseline's data set
     * ({@code ExperimentWorkload.BaselineData}). snapshot_ms is 0 (nothing is read); restore_ms
     * is the load time.
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
        admin(server).dropDatabase(built.name());
    }

    /** The server's {@link DatabaseAdmin}; a kind without one cannot give an experiment fresh databases. */
    static DatabaseAdmin admin(Target server) throws TargetException {
        return server.capability(DatabaseAdmin.class)
                .orElseThrow(() ->
                        new TargetException("type " + server.kind().names().get(0)
                                + " cannot make the fresh databases clean-run and the baselines need"));
    }

    /** A new database {@code name} on {@code server} (dropped first) with the benchmark's schema. */
    static Target open(BenchmarkModule module, BenchmarkConfig config, Target server, String name)
            throws TargetException {
        DatabaseAdmin admin = admin(server);
        admin.createDatabase(name, true);
        Target fresh = admin.withDatabase(name);
        try {
            module.create(config, fresh);
        } catch (TargetException | RuntimeException e) {
            fresh.close();
            throw e;
        }
        return fresh;
    }
}
