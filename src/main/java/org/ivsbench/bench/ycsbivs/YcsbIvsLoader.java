package org.ivsbench.bench.ycsbivs;

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
import org.ivsbench.random.LengthDistribution;
import org.ivsbench.random.RandomValues;
import org.ivsbench.random.Seeds;

/**
 * Loads keynums 0 .. recordcount-1 with several threads, each over a contiguous slice, in batches.
 *
 * <p>Determinism: values come from one seeded stream per fixed chunk of {@value #CHUNK} keynums
 * (Seeds.forStream(seed, "loader", chunk)), drawn in keynum and field order. Chunk boundaries do not
 * depend on the thread count and threads own whole chunks, so a seed gives the same table with 1 or 16
 * loader threads; batches never change which stream a value comes from.
 */
final class YcsbIvsLoader {
    static final int CHUNK = 1000;

    private final YcsbIvsParameters parameters;
    private final long seed;
    private final int threads;
    private final int batchSize;

    YcsbIvsLoader(YcsbIvsParameters parameters, long seed, int threads, int batchSize) {
        this.parameters = parameters;
        this.seed = seed;
        this.threads = Math.max(1, threads);
        this.batchSize = Math.max(1, batchSize);
    }

    LoadReport load(Target target, LoadProgress progress) throws TargetException, InterruptedException {
        if (parameters.keys().sortedness() != null) {
            return new SortedLoad(parameters, seed, batchSize).load(target, progress);
        }
        long started = System.nanoTime();
        long chunks = (parameters.recordCount() + CHUNK - 1) / CHUNK;
        if (chunks > Integer.MAX_VALUE) {
            throw new TargetException("recordcount " + parameters.recordCount() + " is too large to load");
        }
        int workers = (int) Math.min(threads, chunks);
        progress.starting(parameters.recordCount());
        ProgressTotals totals = new ProgressTotals(progress);
        ExecutorService pool = Executors.newFixedThreadPool(workers, r -> {
            Thread t = new Thread(r, "ycsbivs-loader");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<Void>> slices = new ArrayList<>();
            for (int w = 0; w < workers; w++) {
                long firstChunk = chunks * w / workers;
                long endChunk = chunks * (w + 1) / workers;
                slices.add(pool.submit(() -> {
                    loadChunks(target, (int) firstChunk, (int) endChunk, totals);
                    return null;
                }));
            }
            for (Future<Void> slice : slices) {
                try {
                    slice.get();
                } catch (ExecutionException e) {
                    pool.shutdownNow(); // one failed slice fails the load; stop the others
                    if (e.getCause() instanceof TargetException te) {
                        throw te;
                    }
                    throw new TargetException("loader thread failed: " + e.getCause(), e.getCause(), false);
                }
            }
        } finally {
            pool.shutdownNow();
        }
        long elapsed = (System.nanoTime() - started) / 1_000_000;
        return new LoadReport(totals.records(), totals.bytes(), elapsed);
    }

    private void loadChunks(Target target, int firstChunk, int endChunk, ProgressTotals totals) throws TargetException {
        List<String> fields = parameters.fieldNames();
        try (Session session = target.openSession()) {
            List<Record> batch = new ArrayList<>(batchSize);
            long batchBytes = 0;
            for (int chunk = firstChunk; chunk < endChunk; chunk++) {
                SplittableRandom random = Seeds.forStream(seed, "loader", chunk);
                long end = Math.min((long) (chunk + 1) * CHUNK, parameters.recordCount());
                for (long keynum = (long) chunk * CHUNK; keynum < end; keynum++) {
                    if (Thread.currentThread().isInterrupted()) {
                        throw new TargetException("load interrupted");
                    }
                    Record record = record(parameters, fields, keynum, random);
                    batchBytes += bytes(record);
                    batch.add(record);
                    if (batch.size() == batchSize) {
                        session.insertBatch(parameters.table(), batch);
                        totals.add(batch.size(), batchBytes);
                        batch = new ArrayList<>(batchSize);
                        batchBytes = 0;
                    }
                }
            }
            if (!batch.isEmpty()) {
                session.insertBatch(parameters.table(), batch);
                totals.add(batch.size(), batchBytes);
            }
        }
    }

    /** A loaded record: its key by the key shape, then its fields' values in field order from the stream. */
    static Record record(YcsbIvsParameters parameters, List<String> fields, long keynum, SplittableRandom random) {
        LengthDistribution lengths = parameters.fieldLengths();
        Map<String, String> values = new LinkedHashMap<>();
        for (String field : fields) {
            // A constant length draws nothing, so constant loads keep their streams.
            values.put(field, RandomValues.ascii(random, lengths.next(random)));
        }
        return new Record(parameters.keyName(keynum), values);
    }

    static long bytes(Record record) {
        long bytes = 0;
        for (String value : record.fields().values()) {
            bytes += value.length();
        }
        return bytes;
    }

    /** Running totals over all threads, reported in order so a progress bar never goes backwards. */
    static final class ProgressTotals {
        private final LoadProgress progress;
        private long records;
        private long bytes;

        ProgressTotals(LoadProgress progress) {
            this.progress = progress;
        }

        synchronized void add(long moreRecords, long moreBytes) {
            records += moreRecords;
            bytes += moreBytes;
            progress.loaded(records, bytes);
        }

        synchronized long records() {
            return records;
        }

        synchronized long bytes() {
            return bytes;
        }
    }
}
