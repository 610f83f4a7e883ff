package org.ivsbench.merge;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * One shard's results folder as the merge finds it: usable (a complete summary.json), or not, with the reason (no
 * such folder, no summary, the run did not end normally). A folder without summary.json that holds results folders
 * (the {@code -d} parent a shard wrote into) stands for the newest of them.
 */
record ShardFolder(Path given, Path dir, JsonNode summary, String problem) {
    private static final ObjectMapper JSON = new ObjectMapper();

    static ShardFolder open(Path given) {
        if (!Files.isDirectory(given)) {
            return new ShardFolder(given, given, null, "no such folder");
        }
        Path dir = given;
        if (!Files.isRegularFile(dir.resolve("summary.json"))) {
            Optional<Path> newest = newestRun(given);
            if (newest.isEmpty()) {
                return new ShardFolder(given, given, null, "no summary.json (the shard never started its run)");
            }
            dir = newest.get();
        }
        JsonNode summary;
        try {
            summary = JSON.readTree(dir.resolve("summary.json").toFile());
        } catch (IOException e) {
            return new ShardFolder(given, dir, null, "summary.json unreadable: " + e.getMessage());
        }
        if (!summary.path("complete").asBoolean(false)) {
            String why = summary.path("interrupted").asBoolean(false)
                    ? "interrupted (summary.json complete=false)"
                    : "did not finish (summary.json complete=false: the driver died or is still running)";
            return new ShardFolder(given, dir, summary, why);
        }
        if (!Files.isRegularFile(dir.resolve("latency.hlog")) || !Files.isRegularFile(dir.resolve("samples.csv"))) {
            return new ShardFolder(given, dir, summary, "latency.hlog or samples.csv missing");
        }
        return new ShardFolder(given, dir, summary, null);
    }

    private static Optional<Path> newestRun(Path parent) {
        try (Stream<Path> children = Files.list(parent)) {
            return children.filter(p -> Files.isRegularFile(p.resolve("summary.json")))
                    .max(Comparator.comparing((Path p) -> p.getFileName().toString()));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    boolean usable() {
        return problem == null;
    }

    /** The shard index from summary.json's shard block (0 for a run without one: shard 0 of 1), or -1 unread. */
    int shardIndex() {
        return summary == null ? -1 : summary.path("shard").path("index").asInt(0);
    }

    /** The shard count from summary.json's shard block (1 for a run without one), or -1 unread. */
    int shardCount() {
        return summary == null ? -1 : summary.path("shard").path("count").asInt(1);
    }
}
