package org.ivsbench.bench.ycsb;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.ivsbench.bench.LoadProgress;
import org.ivsbench.bench.LoadReport;
import org.ivsbench.db.Record;
import org.ivsbench.db.Session;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;
import org.ivsbench.random.RandomValues;
import org.ivsbench.random.Seeds;

/**
 * Loads ycsb_key 0 .. recordcount - 1, as BenchBase's loader numbers them, in batches over the loader threads.
 * Values come from one seeded stream per fixed chunk of keys, so a seed gives the same table whatever the thread
 * count.
 */
final class YcsbLoader {
    private static final int CHUNK = 1000;

    private final YcsbParameters parameters;
    private final long seed;
    private final int threads;
    private final int batchSize;
    private long records;
    private long bytes;

    YcsbLoader(YcsbParameters parameters, long seed, int threads, int batchSize) {
        this.parameters = parameters;
        this.seed = seed;
        this.threads = Math.max(1, threads);
        this.batchSize = Math.max(1, batchSize);
    }

    LoadReport load(Target target, LoadProgress progress) throws TargetException, InterruptedException {
        long started = System.nanoTime();
        int chunks = (int) ((parameters.recordCount() + CHUNK - 1) / CHUNK);
        int workers = Math.min(threads, chunks);
        progress.starting(parameters.recordCount());
        ExecutorService pool = Executors.newFixedThreadPool(workers, r -> {
            Thread t = new Thread(r, "ycsb-loader");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<Void>> slices = new ArrayList<>();
            for (int w = 0; w < workers; w++) {
                int first = (int) ((long) chunks * w / workers);
                int end = (int) ((long) chunks * (w + 1) / workers);
                slices.add(pool.submit(() -> {
                    loadChunks(target, first, end, progress);
                    return null;
                }));
            }
            for (Future<Void> slice : slices) {
                try {
                    slice.get();
                } catch (ExecutionException e) {
                    pool.shutdownNow();
                    if (e.getCause() instanceof TargetException te) {
                        throw te;
                    }
                    throw new TargetException("loader thread failed: " + e.getCause(), e.getCause(), false);
                }
            }
        } finally {
            pool.shutdownNow();
        }
        synchronized (this) {
            return new LoadReport(records, bytes, (System.nanoTime() - started) / 1_000_000);
        }
    }

    private void loadChunks(Target target, int firstChunk, int endChunk, LoadProgress progress) throws TargetException {
        List<String> fields = parameters.fieldNames();
        long recordBytes = (long) fields.size() * parameters.fieldSize();
        try (Session session = target.openSession()) {
            List<Record> batch = new ArrayList<>(batchSize);
            for (int chunk = firstChunk; chunk < endChunk; chunk++) {
                SplittableRandom random = Seeds.forStream(seed, "ycsb-loader", chunk);
                long end = Math.min((long) (chunk + 1) * CHUNK, parameters.recordCount());
                for (long key = (long) chunk * CHUNK; key < end; key++) {
                    if (Thread.currentThread().isInterrupted()) {
                        throw new TargetException("load interrupted");
                    }
                    Map<String, String> values = new LinkedHashMap<>();
                    for (String field : fields) {
                        values.put(field, RandomValues.ascii(random, parameters.fieldSize()));
                    }
                    batch.add(new Record(Long.toString(key), values));
                    if (batch.size() == batchSize) {
                        flush(session, batch, recordBytes, progress);
                        batch = new ArrayList<>(batchSize);
                    }
                }
            }
            if (!batch.isEmpty()) {
                flush(session, batch, recordBytes, progress);
            }
        }
    }

    private void flush(Session session, List<Record> batch, long recordBytes, LoadProgress progress)
            throws TargetException {
        session.insertBatch(YcsbParameters.TABLE, batch);
        synchronized (this) {
            records += batch.size();
            bytes += batch.size() * recordBytes;
            progress.loaded(records, bytes); // in order under the lock, so a progress bar never goes backwards
        }
    }
}
