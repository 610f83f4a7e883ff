package org.ivsbench.cli;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import org.ivsbench.config.Shard;
import org.ivsbench.db.Target;
import org.ivsbench.run.MeasuredRun;
import org.ivsbench.run.StartBarrier;

/**
 * Holds a shard's first phase at the {@link StartBarrier} and records in summary.json's {@code shard} block which
 * part of the run this is and how it passed the barrier (so a merge can check and report it).
 */
final class ShardGate {
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
                out.println("Shard " + shard + ": " + clockLine(barrier.facts()));
                out.println(
                        "Shard " + shard + ": all arrived, starting at " + start + " (epoch ms, this host's clock)");
            } finally {
                Map<String, Object> passed = new LinkedHashMap<>(block);
                passed.put("barrier", barrier.facts());
                run.collector().putRunFact("shard", passed);
            }
        });
    }

    /** This host's clock against the database server's, as the barrier measured it (its facts). */
    static String clockLine(Map<String, Object> barrier) {
        Object offset = barrier.get("serverClockOffsetMs");
        if (offset == null) {
            Object error = barrier.get("serverClockError");
            return "clock offset against the database server not measured ("
                    + (error != null ? error : "the target cannot read its clock") + ")";
        }
        if ("embedded".equals(barrier.get("serverClock"))) {
            return "clock offset 0 (embedded database, this host's clock)";
        }
        Object correction = barrier.get("startCorrectionMs");
        return String.format(
                Locale.ROOT,
                "clock offset against the database server %+.3f ms (within ± %.3f ms)%s",
                ((Number) offset).doubleValue(),
                ((Number) barrier.get("offsetBoundMs")).doubleValue(),
                correction instanceof Number n && n.longValue() != 0
                        ? ", start corrected by " + n.longValue() + " ms"
                        : "");
    }
}
