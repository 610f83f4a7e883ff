package org.ivsbench.bench.ycsbivs;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

import org.ivsbench.bench.ChunkedLoader;
import org.ivsbench.bench.LoadProgress;
import org.ivsbench.bench.LoadReport;
import org.ivsbench.db.Session;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;
import org.ivsbench.random.LoadOrder;
import org.ivsbench.random.Seeds;
import org.ivsbench.random.Sortedness;

/**
 * A load whose insert order has a requested sortedness ({@code <keys><sortedness>}): the order is generated
 * in memory ({@link LoadOrder}) and inserted on one connection, in batches, exactly in that order, so the
 * database receives the sequence whose sortedness is reported (several loader threads would interleave it).
 * Values come from one stream per chunk of {@value ChunkedLoader#CHUNK} insert positions.
 */
final class SortedLoad {
    private final YcsbIvsParameters parameters;
    private final long seed;
    private final int batchSize;

    SortedLoad(YcsbIvsParameters parameters, long seed, int batchSize) {
        this.parameters = parameters;
        this.seed = seed;
        this.batchSize = Math.max(1, batchSize);
    }

    LoadReport load(Target target, LoadProgress progress) throws TargetException {
        long started = System.nanoTime();
        KeysSection keys = parameters.keys();
        // recordcount is bounded by LoadOrder.LARGEST when a sortedness is configured (KeysSection).
        int n = Math.toIntExact(parameters.recordCount());
        LoadOrder.Result order = LoadOrder.generate(
                keys.shape(), n, keys.sortedness(), keys.window(), Seeds.forStream(seed, "keyorder", 0));
        progress.starting(n);
        ChunkedLoader.Totals totals = new ChunkedLoader.Totals(progress);
        List<String> fields = parameters.fieldNames();
        try (Session session = target.openSession()) {
            ChunkedLoader.Batches batches = new ChunkedLoader.Batches(session, parameters.table(), batchSize, totals);
            SplittableRandom random = null;
            for (int i = 0; i < n; i++) {
                if (i % ChunkedLoader.CHUNK == 0) {
                    random = Seeds.forStream(seed, "sortedload", i / ChunkedLoader.CHUNK);
                }
                batches.add(YcsbIvsLoader.record(parameters, fields, order.keynums()[i], random));
            }
            batches.flush();
        }
        long elapsed = (System.nanoTime() - started) / 1_000_000;
        Sortedness measured = order.measured();
        String note = String.format(
                Locale.ROOT,
                "Insert order: sortedness K=%.4f (requested %.4f), L=%.4f (displacement window %,d) over %,d keys",
                measured.k(),
                keys.sortedness(),
                measured.l(),
                keys.window(),
                measured.n());
        Map<String, Object> insertOrder = new LinkedHashMap<>();
        insertOrder.put("keys", measured.n());
        insertOrder.put("requestedSortedness", keys.sortedness());
        insertOrder.put("displacementWindow", keys.window());
        insertOrder.put("k", measured.k());
        insertOrder.put("l", measured.l());
        return new LoadReport(
                totals.records(), totals.bytes(), elapsed, List.of(note), Map.of("insertOrder", insertOrder));
    }
}
