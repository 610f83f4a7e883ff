package org.ivsbench.run;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.bench.BenchmarkModule;
import org.ivsbench.bench.LoadProgress;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.Shard;
import org.ivsbench.db.Target;
import org.ivsbench.db.Targets;
import org.ivsbench.stats.RunInfo;
import org.ivsbench.testsupport.RunHarness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** One results folder as every mode prepares it, on SQLite; and a run stopped before it starts. */
class RunFolderTest {
    @TempDir
    Path tmp;

    private BenchmarkConfig config(String works) throws Exception {
        return RunHarness.config(
                tmp,
                "<parameters><type>SQLITE</type><url>jdbc:sqlite:" + tmp.resolve("f.db") + "</url>"
                        + "<terminals>5</terminals><randomSeed>7</randomSeed><recordcount>20</recordcount>"
                        + "<transactiontypes><transactiontype><name>ReadRecord</name></transactiontype>"
                        + "</transactiontypes><works>" + works + "</works>"
                        + "<monitor><enabled>false</enabled></monitor></parameters>");
    }

    @Test
    void theFolderHoldsTheRedactedConfigTheEnvironmentAndThisDriversShare() throws Exception {
        BenchmarkModule module = RunHarness.module();
        BenchmarkConfig config =
                config("<work><count>10</count><rate>unlimited</rate><weights>100</weights></work>").toBuilder()
                        .shard(Shard.parse("1/2"))
                        .build();
        Path dir = Files.createDirectory(tmp.resolve("run"));
        String xml = "<parameters><password>***</password></parameters>";
        RunInfo info;
        try (Target target = Targets.open(config.target())) {
            info = new RunFolder(List.of("-b", "ycsbivs"), 3).prepare(dir, xml, module, config, target);
        }
        assertEquals(xml, Files.readString(dir.resolve("config.xml")));
        JsonNode env =
                new ObjectMapper().readTree(dir.resolve("environment.json").toFile());
        assertEquals(
                "[\"-b\",\"ycsbivs\"]", env.path("client").path("commandLine").toString());
        String sha = HexFormat.of()
                .formatHex(MessageDigest.getInstance("SHA-256").digest(xml.getBytes(StandardCharsets.UTF_8)));
        assertEquals("sha256:" + sha, info.configDigest());
        assertEquals("ycsbivs", info.benchmark());
        assertEquals(7, info.randomSeed());
        assertEquals(3, info.windowSeconds());
        assertEquals(2, info.terminals(), "shard 1 of 2 owns terminals 1 and 3 of 5");
        assertEquals(5, info.phases().get(0).count(), "and half of the 10 operations");
        assertEquals("SQLITE", info.database().get("type"));
    }

    @Test
    void withoutConfigTextOnlyTheEnvironmentIsWritten() throws Exception {
        BenchmarkConfig config = config("<work><count>10</count><rate>unlimited</rate><weights>100</weights></work>");
        Path dir = Files.createDirectory(tmp.resolve("exp"));
        try (Target target = Targets.open(config.target())) {
            new RunFolder(List.of(), 1).write(dir, null, target, config);
        }
        assertTrue(Files.exists(dir.resolve("environment.json")));
        assertTrue(Files.notExists(dir.resolve("config.xml")));
    }

    @Test
    void aRunStartedAfterTheStopEndsAtOnceAndKeepsItsSummary() throws Exception {
        BenchmarkModule module = RunHarness.module();
        // Ten minutes unless stopped.
        BenchmarkConfig config = config("<work><time>600</time><rate>10</rate><weights>100</weights></work>");
        Path dir = Files.createDirectory(tmp.resolve("stopped"));
        Stopping stopping = new Stopping();
        stopping.request();
        try (Target target = Targets.open(config.target())) {
            module.create(config, target);
            module.load(config, target, LoadProgress.NONE);
            RunFolder folder = new RunFolder(List.of(), 1);
            try (MeasuredRun run =
                    new MeasuredRun(module, config, target, dir, folder.prepare(dir, "<x/>", module, config, target))) {
                stopping.track(run);
                assertTrue(run.stopRequested(), "stopped as it is tracked, before it runs");
                assertNull(stopping.execute(run));
            }
        }
        JsonNode summary =
                new ObjectMapper().readTree(dir.resolve("summary.json").toFile());
        assertTrue(summary.path("interrupted").asBoolean(), summary.toString());
    }
}
