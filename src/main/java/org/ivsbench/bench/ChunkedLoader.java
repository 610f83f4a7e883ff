package org.ivsbench.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.db.Record;
import org.ivsbench.db.Session;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;
import org.ivsbench.random.Seeds;

/**
 * The loader every benchmark extends: it loads key numbers 0 .. recordcount - 1 over the config's loader threads, each
 * thread on its own session over a contiguous slice of keys, in batches of the config's batch size. A benchmark
 * writes its record shape ({@link #record}), nothing else.
 *
 * <p>Determinism: a record's random choices come from one seeded stream per fixed chunk of {@value #CHUNK} key
 * numbers ({@code Seeds.forStream(seed, streamName, chunk)}), drawn in key number order. Chunk boundaries do not
 * depend on the thread count and threads own whole chunks, so a seed gives the same table with 1 or 16 loader
 * threads; batches never change which stream a value comes from. One failed slice fails the load and stops the
 * others; an interrupted load fails with "load interrupted".
 */
public abstract class ChunkedLoader {
    /** Key numbers per seeded stream. */
    public static final int CHUNK = 1000;

    private final String table;
    private final long recordCount;
    private final String streamName;
    private final long seed;
    private final int threads;
    private final int batchSize;

    /**
     * A loader of {@code recordCount} records into {@code table}, with the seed, loader threads and batch size of
     * {@code config}; {@code streamName} names the seeded streams (and the loader threads).
     */
    protected ChunkedLoader(BenchmarkConfig config, String table, long recordCount, String streamName) {
        this.table = table;
        this.recordCount = recordCount;
        this.streamName = streamName;
        this.seed = config.randomSeed();
        this.threads = Math.max(1, config.loaderThreads());
        this.batchSize = Math.max(1, config.batchSize());
    }

    /** The record of key number {@code keynum}, every random choice drawn from {@code random}. */
    protected abstract Record record(long keynum, SplittableRandom random);

    /** Loads every record; reports progress as batches are written. */
    public final LoadReport load(Target target, LoadProgress progress) throws TargetException, InterruptedException {
        long started = System.nanoTime();
        long chunks = (recordCount + CHUNK - 1) / CHUNK;
        if (chunks > Integer.MAX_VALUE) {
            throw new TargetException(
                    recordCount + " records are too many to load (at most " + (long) Integer.MAX_VALUE * CHUNK + ")");
        }
        int workers = (int) Math.max(1, Math.min(threads, chunks));
        progress.starting(recordCount);
        Totals totals = new Totals(progress);
        ExecutorService pool = Executors.newFixedThreadPool(workers, r -> {
            Thread t = new Thread(r, streamName);
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<Void>> slices = new ArrayList<>();
            for (int w = 0; w < workers; w++) {
                long firstChunk = chunks * w / workers;
                long endChunk = chunks * (w + 1) / workers;
                slices.add(pool.submit(() -> {
                    loadChunks(target, firstChunk, endChunk, totals);
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
        return new LoadReport(totals.records(), totals.bytes(), (System.nanoTime() - started) / 1_000_000);
    }

    private void loadChunks(Target target, long firstChunk, long endChunk, Totals totals) throws TargetException {
        try (Session session = target.openSession()) {
            Batches batches = new Batches(session, table, batchSize, totals);
            for (long chunk = firstChunk; chunk < endChunk; chunk++) {
                SplittableRandom random = Seeds.forStream(seed, streamName, (int) chunk);
                long end = Math.min((chunk + 1) * CHUNK, recordCount);
                for (long keynum = chunk * CHUNK; keynum < end; keynum++) {
                    batches.add(record(keynum, random));
                }
            }
            batches.flush();
        }
    }

    /** The value bytes of a record: the lengths of its field values. */
    public static long valueBytes(Record record) {
        long bytes = 0;
        for (String value : record.fields().values()) {
            bytes += value.length();
        }
        return bytes;
    }

    /**
     * Records written to one session in batches of a fixed size, added to the load's totals as each batch is
     * written. Fails with "load interrupted" once the loading thread is interrupted. One thread only.
     */
    public static final class Batches {
        private final Session session;
        private final String table;
        private final int size;
        private final Totals totals;
        private List<Record> batch;
        private long batchBytes;

        public Batches(Session session, String table, int size, Totals totals) {
            this.session = session;
            this.table = table;
            this.size = Math.max(1, size);
            this.totals = totals;
            this.batch = new ArrayList<>(this.size);
        }

        /** Adds a record; writes the batch when it is full. */
        public void add(Record record) throws TargetException {
            if (Thread.currentThread().isInterrupted()) {
                throw new TargetException("load interrupted");
            }
            batch.add(record);
            batchBytes += valueBytes(record);
            if (batch.size() == size) {
                flush();
            }
        }

        /** Writes what is left. */
        public void flush() throws TargetException {
            if (batch.isEmpty()) {
                return;
            }
            session.insertBatch(table, batch);
            totals.add(batch.size(), batchBytes);
            batch = new ArrayList<>(size);
            batchBytes = 0;
        }
    }

    /** Running totals over all loader threads, reported in order so a progress bar never goes backwards. */
    public static final class Totals {
        private final LoadProgress progress;
        private long records;
        private long bytes;

        public Totals(LoadProgress progress) {
            this.progress = progress;
        }

        synchronized void add(long moreRecords, long moreBytes) {
            records += moreRecords;
            bytes += moreBytes;
            progress.loaded(records, bytes);
        }

        public synchronized long records() {
            return records;
        }

        public synchronized long bytes() {
            return bytes;
        }
    }
}
