package org.ivsbench.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.testsupport.CliArgs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code generate} through the real command line: a YCSB A stream (zipfian reads and updates 50:50, two terminals)
 * is written without a database and replayed on SQLite with exact operation counts and no digest checked; a
 * one-terminal stream equals what a traced run on SQLite issued, record for record; the same seed gives the same
 * file content; bad input is one line, exit 2, and leaves no file.
 */
class GenerateCliTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    /** YCSB workload A as a ycsbivs config; {@code work}: the phase's length element(s). */
    private Path ycsbA(String name, int terminals, String work) throws IOException {
        Path p = tmp.resolve(name + ".xml");
        Files.writeString(
                p,
                "<parameters><type>SQLITE</type><url>jdbc:sqlite:" + tmp.resolve(name + ".db") + "</url>"
                        + "<terminals>" + terminals + "</terminals><randomSeed>11</randomSeed>"
                        + "<recordcount>500</recordcount><monitor><enabled>false</enabled></monitor>"
                        + "<transactiontypes><transactiontype><name>ReadRecord</name></transactiontype>"
                        + "<transactiontype><name>UpdateRecord</name></transactiontype></transactiontypes>"
                        + "<works><work>" + work + "<rate>unlimited</rate><weights>50,50</weights>"
                        + "<distribution>zipfian</distribution></work></works></parameters>");
        return p;
    }

    private static CliHarness.Result generate(Path cfg, Path out, String... more) {
        List<String> args =
                new ArrayList<>(List.of("generate", "-b", "ycsbivs", "-c", cfg.toString(), "-o", out.toString()));
        args.addAll(List.of(more));
        return CliHarness.run(args.toArray(String[]::new));
    }

    /** The trace's record lines without what only a run has (start offset, outcome, result hash). */
    private static List<String> operations(Path trace) throws IOException {
        List<String> ops = new ArrayList<>();
        try (BufferedReader in = new BufferedReader(
                new InputStreamReader(new GZIPInputStream(Files.newInputStream(trace)), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                ObjectNode n = (ObjectNode) JSON.readTree(line);
                if (n.has("op")) {
                    n.remove(List.of("o", "outcome", "hash"));
                    ops.add(n.toString());
                }
            }
        }
        return ops;
    }

    @Test
    void aGeneratedYcsbAStreamReplaysOnSqliteWithExactCountsAndNoDigestChecked() throws Exception {
        Path cfg = ycsbA("a", 2, "<count>600</count>");
        Path trace = tmp.resolve("a.trace.gz");
        CliHarness.Result g = generate(cfg, trace);
        assertEquals(0, g.code(), g.out() + g.err());
        assertTrue(g.out().contains("Generated 600 operations of 2 terminals"), g.out());
        List<String> ops = operations(trace);
        assertEquals(600, ops.size());
        long reads = ops.stream().filter(o -> o.contains("\"op\":\"read\"")).count();
        long updates = ops.stream().filter(o -> o.contains("\"op\":\"update\"")).count();
        assertEquals(600, reads + updates);
        assertEquals(300, ops.stream().filter(o -> o.startsWith("{\"t\":0,")).count(), "terminals take turns");

        CliHarness.Result r = CliHarness.run(
                "replay",
                "--trace",
                trace.toString(),
                "-c",
                cfg.toString(),
                "--create",
                "--load",
                "-d",
                tmp.resolve("replays").toString());
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("Replaying 600 operations of 2 terminals (timing fast)"), r.out());
        assertTrue(
                r.out()
                        .contains("digests not checked: the trace was generated without a database, its " + reads
                                + " reads carry no result digest"),
                r.out());
        Path dir;
        try (Stream<Path> dirs = Files.list(tmp.resolve("replays"))) {
            dir = dirs.findFirst().orElseThrow();
        }
        String summary = Files.readString(dir.resolve("replay-summary.txt"));
        assertTrue(summary.contains("outcome read OK " + reads + "\n"), summary);
        assertTrue(summary.contains("outcome update OK " + updates + "\n"), summary);
        List<String> digest = Files.readAllLines(dir.resolve("replay-digest.txt"));
        assertEquals(
                "digests not checked (generated trace: its reads carry no result digest)",
                digest.get(digest.size() - 1));
        assertFalse(digest.stream().anyMatch(l -> l.endsWith("DIFFERS")));
    }

    @Test
    void aOneTerminalStreamIsWhatATracedRunIssued() throws Exception {
        // Phase 1 is A; phase 2 (its own streams) takes the types in turn (serial).
        Path cfg = ycsbA(
                "one",
                1,
                "<count>300</count><rate>unlimited</rate><weights>50,50</weights><distribution>zipfian</distribution>"
                        + "</work><work><count>100</count><serial>true</serial>");
        Path recorded = tmp.resolve("recorded.trace.gz");
        CliHarness.Result run =
                CliHarness.run(CliArgs.createLoadExecute(cfg, tmp.resolve("results"), "--trace", recorded.toString()));
        assertEquals(0, run.code(), run.err());
        Path generated = tmp.resolve("generated.trace.gz");
        assertEquals(0, generate(cfg, generated).code());
        List<String> want = operations(recorded);
        assertEquals(400, want.size());
        assertEquals(100, want.stream().filter(o -> o.contains("\"p\":1,")).count());
        assertEquals(want, operations(generated));

        Path again = tmp.resolve("again.trace.gz");
        assertEquals(0, generate(cfg, again).code());
        assertEquals(text(generated), text(again), "the same seed writes the same file content");
    }

    private static String text(Path trace) throws IOException {
        try (var in = new GZIPInputStream(Files.newInputStream(trace))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void badInputIsOneLineExitTwoAndLeavesNoFile() throws Exception {
        Path timed = ycsbA("timed", 1, "<time>30</time>");
        Path out = tmp.resolve("out.trace.gz");

        CliHarness.Result r = generate(timed, out);
        assertEquals(2, r.code(), r.err());
        assertEquals(
                "error: -c " + timed
                        + ": works/work[1] (phase 'phase0') ends by time (30 s): how many operations it holds depends"
                        + " on the database; give it a <count>, or give --count",
                r.err().strip());
        assertFalse(Files.exists(out));

        r = generate(timed, out, "--count", "-3");
        assertEquals(2, r.code(), r.err());
        assertEquals(
                "error: --count: '-3' must be 1 or more (0: the phases' own counts)",
                r.err().strip());

        Path missing = tmp.resolve("no-such-folder").resolve("x.trace.gz");
        r = generate(timed, missing, "--count", "10");
        assertEquals(2, r.code(), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().startsWith("error: -o: '" + missing + "'"), r.err());

        r = generate(tmp.resolve("absent.xml"), out);
        assertEquals(2, r.code(), r.err());
        assertEquals(
                "error: -c: '" + tmp.resolve("absent.xml") + "' does not exist",
                r.err().strip());

        // --count turns the time phase into a count phase; nothing is left beside the finished file.
        r = generate(timed, out, "--count", "50");
        assertEquals(0, r.code(), r.err());
        assertEquals(50, operations(out).size());
        try (Stream<Path> files = Files.list(tmp)) {
            assertEquals(
                    List.of(),
                    files.filter(f -> f.getFileName().toString().contains("partial"))
                            .toList());
        }
        Matcher m = Pattern.compile("Generated 50 operations").matcher(r.out());
        assertTrue(m.find(), r.out());
    }
}
