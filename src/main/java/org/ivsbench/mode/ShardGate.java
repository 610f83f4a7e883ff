package org.ivsbench.mode;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;

import org.ivsbench.config.Shard;
import org.ivsbench.db.Target;
import org.ivsbench.merge.ResultsMerge;
import org.ivsbench.run.MeasuredRun;
import org.ivsbench.run.StartBarrier;

/**
 * Holds a shard's first phase at the {@link StartBarrier} and records in summary.json's {@code shard} block which
 * part of the run this is and how it passed the barrier (so a merge can check and report it).
 */
final class ShardGate {
    private static final ObjectMapper JSON = new ObjectMapper();

    private ShardGate() {}

    static void install(
            MeasuredRun run, Target target, Shard shard, String digest, long timeoutSeconds, PrintStream out) {
        // The digest covers the config only: shards of one run share it, and rows of earlier runs are told apart
        // by their age (StartBarrier).
        String group = digest.replace("sha256:", "").substring(0, 16);
        StartBarrier barrier = new StartBarrier(target, shard, group, timeoutSeconds * 1000);
        Map<String, Object> block = new LinkedHashMap<>();
        block.put("index", shard.index());
        block.put("count", shard.count());
        block.put("barrierTimeoutSeconds", timeoutSeconds);
        run.collector().putRunFact("shard", block);
        run.manager().setStartGate(() -> {
            out.println("Shard " + shard + ": waiting for " + (shard.count() - 1) + " other shard(s) at the start"
                    + " barrier (at most " + timeoutSeconds + " s)");
            try {
                long start = barrier.await();
                out.println("Shard " + shard + ": " + ResultsMerge.barrierLine(JSON.valueToTree(barrier.facts())));
                out.println(
                        "Shard " + shard + ": all arrived, starting at " + start + " (epoch ms, this host's clock)");
            } finally {
                Map<String, Object> passed = new LinkedHashMap<>(block);
                passed.put("barrier", barrier.facts());
                run.collector().putRunFact("shard", passed);
            }
        });
    }
}
