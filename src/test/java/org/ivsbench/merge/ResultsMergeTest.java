package org.ivsbench.merge;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What merge refuses before writing anything (the figures are checked on real shards: ShardedDriversMariaDbTest). */
class ResultsMergeTest {
    @TempDir
    Path dir;

    private Path shard(String name, String digest, int index) throws Exception {
        Path d = Files.createDirectories(dir.resolve(name));
        Files.writeString(
                d.resolve("summary.json"),
                "{\"benchmark\":\"ycsbivs\",\"complete\":true,\"configDigest\":\"" + digest + "\",\"randomSeed\":1,"
                        + "\"windowSeconds\":1,\"shard\":{\"index\":" + index + ",\"count\":2},\"phases\":[]}");
        Files.writeString(d.resolve("samples.csv"), SamplesMerger.HEADER + "\n");
        Files.writeString(d.resolve("latency.hlog"), "");
        return d;
    }

    @Test
    void foldersOfDifferentRunsAreRefusedAndNothingIsWritten() throws Exception {
        Path out = dir.resolve("out");
        List<Path> in = List.of(shard("a", "sha256:1", 0), shard("b", "sha256:2", 1));
        var e = assertThrows(ResultsMerge.MergeException.class, () -> ResultsMerge.merge(in, out));
        assertTrue(e.getMessage().contains("configDigest differs"), e.getMessage());
        assertFalse(Files.exists(out));
        assertFalse(Files.exists(dir.resolve("out.merging")));
    }

    @Test
    void theSameShardTwiceIsRefused() throws Exception {
        List<Path> in = List.of(shard("a", "sha256:1", 0), shard("b", "sha256:1", 0));
        var e = assertThrows(ResultsMerge.MergeException.class, () -> ResultsMerge.merge(in, dir.resolve("out")));
        assertTrue(e.getMessage().contains("shard 0 given twice"), e.getMessage());
    }

    @Test
    void aNonEmptyOutputOrNothingUsableIsRefused() throws Exception {
        Path out = Files.createDirectories(dir.resolve("out"));
        Files.writeString(out.resolve("keep.txt"), "x");
        List<Path> in = List.of(shard("a", "sha256:1", 0));
        var e = assertThrows(ResultsMerge.MergeException.class, () -> ResultsMerge.merge(in, out));
        assertTrue(e.getMessage().startsWith("-o: "), e.getMessage());
        var none = assertThrows(
                ResultsMerge.MergeException.class,
                () -> ResultsMerge.merge(List.of(dir.resolve("nope")), dir.resolve("out2")));
        assertTrue(none.getMessage().contains("nope (no such folder)"), none.getMessage());
    }
}
