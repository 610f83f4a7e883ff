package org.ivsbench.merge;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

/**
 * Merges the results folders of the shards of one run into one folder (docs/results-format.md, "Merged
 * folders"). Shards that are missing or did not finish are left out of the figures and named in the result and
 * in summary.json's {@code shards} block; the merged summary is then {@code complete: false}. The folder is
 * built beside {@code out} and moved into place at the end, so nothing half-written is left.
 */
public final class ResultsMerge {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** Bad input: nothing to merge, folders of different runs, an existing output. Nothing was written. */
    public static final class MergeException extends Exception {
        MergeException(String message) {
            super(message);
        }
    }

    /**
     * What was merged: the shards whose figures are in {@code out}, one line per shard left out, and one line per
     * merged shard on how it passed the start barrier (its clock's offset against the database server's).
     */
    public record Result(
            Path out, int expectedShards, List<Integer> merged, List<String> leftOut, List<String> barriers) {
        public boolean complete() {
            return leftOut.isEmpty();
        }
    }

    private ResultsMerge() {}

    public static Result merge(List<Path> inputs, Path out) throws IOException, MergeException {
        if (Files.exists(out) && !isEmptyDir(out)) {
            throw new MergeException("-o: '" + out + "' exists and is not an empty folder");
        }
        List<ShardFolder> folders = inputs.stream().map(ShardFolder::open).toList();
        List<ShardFolder> usable = folders.stream().filter(ShardFolder::usable).toList();
        if (usable.isEmpty()) {
            StringBuilder why = new StringBuilder("nothing to merge:");
            folders.forEach(f -> why.append(' ')
                    .append(f.given())
                    .append(" (")
                    .append(f.problem())
                    .append(");"));
            throw new MergeException(why.substring(0, why.length() - 1));
        }
        int expected = checkOneRun(folders, usable);
        List<String> leftOut = new ArrayList<>();
        TreeSet<Integer> present = new TreeSet<>();
        for (ShardFolder f : folders) {
            if (f.shardIndex() >= 0) {
                present.add(f.shardIndex());
            }
            if (!f.usable()) {
                leftOut.add(
                        (f.shardIndex() >= 0 ? "shard " + f.shardIndex() + " " : "") + f.dir() + ": " + f.problem());
            }
        }
        for (int i = 0; i < expected; i++) {
            if (!present.contains(i)) {
                leftOut.add("shard " + i + " of " + expected + ": no folder given");
            }
        }
        List<Integer> merged =
                usable.stream().map(ShardFolder::shardIndex).sorted().toList();
        Path tmp = out.toAbsolutePath().resolveSibling(out.getFileName() + ".merging");
        deleteTree(tmp);
        Files.createDirectories(tmp);
        write(usable, tmp, expected, merged, leftOut);
        if (Files.exists(out)) {
            Files.delete(out); // empty, checked above
        }
        Files.move(tmp, out, StandardCopyOption.ATOMIC_MOVE);
        List<String> barriers = usable.stream()
                .sorted(Comparator.comparingInt(ShardFolder::shardIndex))
                .map(f -> "shard " + f.shardIndex() + ": "
                        + barrierLine(f.summary().path("shard").path("barrier")))
                .toList();
        return new Result(out, expected, merged, List.copyOf(leftOut), barriers);
    }

    /** A shard's barrier block in words: its clock offset against the server's, its correction, its lateness. */
    public static String barrierLine(JsonNode barrier) {
        if (barrier.isMissingNode() || barrier.isNull()) {
            return "no start barrier recorded";
        }
        JsonNode offset = barrier.path("serverClockOffsetMs");
        String clock;
        if (!offset.isNumber()) {
            clock = "clock offset not measured ("
                    + (barrier.path("serverClockError").isTextual()
                            ? barrier.path("serverClockError").asText()
                            : "the target cannot read its clock")
                    + ")";
        } else {
            clock = String.format(
                    Locale.ROOT,
                    "clock offset %+.3f ms (within ± %.3f ms) against the database server's",
                    offset.asDouble(),
                    barrier.path("offsetBoundMs").asDouble());
        }
        return clock + ", start corrected by "
                + barrier.path("startCorrectionMs").asLong() + " ms, started "
                + barrier.path("startLateMs").asLong() + " ms late";
    }

    /** The shard count the folders agree on (1 when none is a shard); throws when they are of different runs. */
    private static int checkOneRun(List<ShardFolder> folders, List<ShardFolder> usable) throws MergeException {
        JsonNode first = usable.get(0).summary();
        int expected = -1;
        TreeSet<Integer> seen = new TreeSet<>();
        for (ShardFolder f : folders) {
            if (f.summary() == null) {
                continue;
            }
            for (String field : List.of("benchmark", "configDigest", "randomSeed", "windowSeconds")) {
                if (!f.summary().path(field).equals(first.path(field))) {
                    throw new MergeException(f.dir() + ": not a shard of the same run as "
                            + usable.get(0).dir() + " (" + field + " differs: "
                            + f.summary().path(field) + " vs " + first.path(field) + ")");
                }
            }
            if (f.shardCount() > 0) {
                if (expected > 0 && expected != f.shardCount()) {
                    throw new MergeException(f.dir() + ": shard of " + f.shardCount() + ", the others of " + expected);
                }
                expected = f.shardCount();
                if (!seen.add(f.shardIndex())) {
                    throw new MergeException(f.dir() + ": shard " + f.shardIndex() + " given twice");
                }
            }
        }
        return expected > 0 ? expected : 1;
    }

    private static void write(
            List<ShardFolder> usable, Path dir, int expected, List<Integer> merged, List<String> leftOut)
            throws IOException {
        long windowMs = usable.get(0).summary().path("windowSeconds").asLong(1) * 1000;
        HistogramSums latency = new HistogramSums(windowMs, true);
        SamplesMerger samples = new SamplesMerger();
        boolean allTotals = true;
        HistogramSums totals = new HistogramSums(1, false);
        List<JsonNode> summaries = new ArrayList<>();
        long base = Long.MAX_VALUE;
        for (ShardFolder f : usable) {
            latency.add(f.dir().resolve("latency.hlog"));
            samples.add(f.dir().resolve("samples.csv"));
            allTotals &= Files.isRegularFile(f.dir().resolve("histograms.hlog"));
            totals.add(f.dir().resolve("histograms.hlog"));
            summaries.add(f.summary());
            base = Math.min(base, f.summary().path("startMs").asLong() / windowMs * windowMs);
        }
        base = Math.min(base, latency.firstStart(base));
        latency.write(
                dir.resolve("latency.hlog"),
                base,
                "ivsbench response time (microseconds) per window: tagged p<phase>.<type>, untagged all; merged from "
                        + usable.size() + " shard(s)");
        if (allTotals) {
            totals.write(
                    dir.resolve("histograms.hlog"),
                    Math.min(base, totals.firstStart(base)),
                    "ivsbench whole-phase" + " histograms (microseconds), merged from " + usable.size() + " shard(s)");
        }
        samples.write(dir.resolve("samples.csv"), latency);
        MonitorMerge.write(usable, dir);
        for (String copied : List.of("config.xml", "environment.json")) {
            Path src = usable.get(0).dir().resolve(copied);
            if (Files.isRegularFile(src)) {
                Files.copy(src, dir.resolve(copied));
            }
        }
        writeSummary(usable, summaries, dir, expected, merged, leftOut, latency, allTotals ? totals : null);
    }

    private static void writeSummary(
            List<ShardFolder> usable,
            List<JsonNode> summaries,
            Path dir,
            int expected,
            List<Integer> merged,
            List<String> leftOut,
            HistogramSums latency,
            HistogramSums totals)
            throws IOException {
        JsonNode first = summaries.get(0);
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("tool", first.path("tool"));
        root.put("benchmark", first.path("benchmark").asText());
        root.put("complete", leftOut.isEmpty());
        root.put("interrupted", false);
        root.put("database", first.path("database"));
        root.put("configDigest", first.path("configDigest").asText());
        root.put("randomSeed", first.path("randomSeed").asLong());
        root.put(
                "terminals",
                summaries.stream().mapToLong(s -> s.path("terminals").asLong()).sum());
        root.put("windowSeconds", first.path("windowSeconds").asLong());
        Map<String, Object> shards = new LinkedHashMap<>();
        shards.put("count", expected);
        shards.put("merged", merged);
        shards.put("leftOut", leftOut);
        List<Map<String, Object>> list = new ArrayList<>();
        for (ShardFolder f : usable) {
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("index", f.shardIndex());
            s.put("folder", f.dir().toString());
            s.put("barrier", f.summary().path("shard").path("barrier"));
            list.add(s);
        }
        shards.put("shards", list);
        root.put("shards", shards);
        root.put(
                "startMs",
                summaries.stream()
                        .mapToLong(s -> s.path("startMs").asLong())
                        .min()
                        .orElse(0));
        root.put(
                "endMs",
                summaries.stream()
                        .mapToLong(s -> s.path("endMs").asLong())
                        .max()
                        .orElse(0));
        root.put("phases", SummaryMerger.phases(summaries, latency, totals));
        JSON.writeValue(dir.resolve("summary.json").toFile(), root);
    }

    private static boolean isEmptyDir(Path p) throws IOException {
        if (!Files.isDirectory(p)) {
            return false;
        }
        try (Stream<Path> s = Files.list(p)) {
            return s.findAny().isEmpty();
        }
    }

    private static void deleteTree(Path p) throws IOException {
        if (!Files.exists(p)) {
            return;
        }
        try (Stream<Path> s = Files.walk(p)) {
            for (Path q : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(q);
            }
        }
    }
}
