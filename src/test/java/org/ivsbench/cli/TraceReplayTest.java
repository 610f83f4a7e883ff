package org.ivsbench.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.testsupport.CliArgs;
import org.ivsbench.testsupport.TestServers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A seeded one-terminal run with every kind of record operation is traced on SQLite and replayed through the real
 * command line: on a fresh SQLite and on MariaDB loaded with the same seed the read digests are equal; on data
 * loaded with another seed they differ and the first differing read is named; a paced replay reports the start
 * lateness of every operation per phase; damaged traces are refused.
 */
class TraceReplayTest {
    @TempDir
    Path tmp;

    private static final String TYPES = "<transactiontypes>"
            + type("ReadRecord") + type("UpdateRecord") + type("ExtendRecord") + type("InsertRecord")
            + type("ScanRecord") + type("DeleteRecord") + type("ReadModifyWriteRecord") + "</transactiontypes>";

    private static String type(String name) {
        return "<transactiontype><name>" + name + "</name></transactiontype>";
    }

    private static String config(String connection, long seed) {
        return "<parameters>" + connection + "<terminals>1</terminals><randomSeed>" + seed + "</randomSeed>"
                + "<recordcount>100</recordcount><fieldcount>3</fieldcount><fieldlength>20</fieldlength>"
                + "<extendfieldlength>10</extendfieldlength><maxfieldlength>200</maxfieldlength>"
                + "<table>traced</table><monitor><enabled>false</enabled></monitor>" + TYPES
                + "<works><work><count>400</count><rate>unlimited</rate><weights>30,15,20,5,10,5,15</weights></work>"
                + "<work><count>100</count><rate>200</rate><arrival>poisson</arrival>"
                + "<weights>60,0,20,0,20,0,0</weights></work></works></parameters>";
    }

    private static String sqlite(Path db) {
        return "<type>SQLITE</type><url>jdbc:sqlite:" + db + "</url>";
    }

    private Path write(String name, String text) throws IOException {
        Path p = tmp.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    /** Traces the seeded run on a fresh SQLite database; returns the trace file. */
    private Path traceRun() throws IOException {
        Path cfg = write("run.xml", config(sqlite(tmp.resolve("run.db")), 7));
        Path trace = tmp.resolve("run.trace.gz");
        CliHarness.Result r =
                CliHarness.run(CliArgs.createLoadExecute(cfg, tmp.resolve("results"), "--trace", trace.toString()));
        assertEquals(0, r.code(), r.err());
        return trace;
    }

    private CliHarness.Result replay(Path trace, Path cfg, String... more) {
        List<String> args = new ArrayList<>(List.of(
                "replay",
                "--trace",
                trace.toString(),
                "-c",
                cfg.toString(),
                "-d",
                tmp.resolve("replays").toString()));
        args.addAll(Arrays.asList(more));
        return CliHarness.run(args.toArray(String[]::new));
    }

    @Test
    void replayOnFreshSqliteAndMariaDbGivesTheRecordedDigest() throws Exception {
        Path trace = traceRun();
        Path fresh = write("fresh.xml", config(sqlite(tmp.resolve("fresh.db")), 7));
        CliHarness.Result r = replay(trace, fresh, "--create", "--load");
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("digests equal"), r.out());
        System.out.println("sqlite replay: " + r.out());

        Path maria = write(
                "maria.xml",
                config(
                        "<type>MARIADB</type><url>" + TestServers.mariadbUrl() + "</url>"
                                + "<username>" + TestServers.mariadbUser() + "</username><password>"
                                + TestServers.mariadbPassword()
                                + "</password>",
                        7));
        r = replay(trace, maria, "--create", "--load", "--timing", "fast");
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("digests equal"), r.out());
        System.out.println("mariadb replay: " + r.out());
        try (Stream<Path> dirs = Files.list(tmp.resolve("replays"))) {
            for (Path d : dirs.toList()) {
                List<String> lines = Files.readAllLines(d.resolve("replay-digest.txt"));
                assertEquals("digests equal", lines.get(lines.size() - 1));
                assertTrue(lines.stream().anyMatch(l -> l.contains(" scan ")), "the run scanned");
                assertTrue(lines.stream().anyMatch(l -> l.contains(" read ")), "the run read");
                String summary = Files.readString(d.resolve("replay-summary.txt"));
                for (String op : List.of("update", "extend", "insert", "delete")) {
                    assertTrue(summary.contains("outcome " + op + " OK"), op + " replayed: " + summary);
                }
            }
        }
    }

    @Test
    void severalTerminalsThatOnlyReadReplayToTheRecordedDigest() throws Exception {
        String reads = "<transactiontypes>" + type("ReadRecord") + type("ScanRecord") + "</transactiontypes>";
        String body = "<terminals>3</terminals><randomSeed>5</randomSeed><recordcount>100</recordcount>"
                + "<fieldcount>3</fieldcount><fieldlength>20</fieldlength><table>traced</table>"
                + "<monitor><enabled>false</enabled></monitor>" + reads
                + "<works><work><count>300</count><rate>300</rate><weights>80,20</weights></work></works></parameters>";
        Path cfg = write("reads.xml", "<parameters>" + sqlite(tmp.resolve("reads.db")) + body);
        Path trace = tmp.resolve("reads.trace.gz");
        CliHarness.Result r =
                CliHarness.run(CliArgs.createLoadExecute(cfg, tmp.resolve("results"), "--trace", trace.toString()));
        assertEquals(0, r.code(), r.err());
        Path fresh = write("reads-fresh.xml", "<parameters>" + sqlite(tmp.resolve("reads-fresh.db")) + body);
        r = replay(trace, fresh, "--create", "--load");
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("Replaying 300 operations of 3 terminals"), r.out());
        assertTrue(r.out().contains("digests equal"), r.out());
        System.out.println("3-terminal replay: " + r.out());
        r = replay(trace, fresh, "--terminals", "1", "--timing", "fast");
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("digests equal"), r.out());
    }

    @Test
    void aRecordedTimingReplayReportsTheLatenessOfEveryOperationPerPhase() throws Exception {
        // Reads and extends only: one record operation per benchmark operation, so the trace's records are the
        // operations whose starts are timed. Two paced count phases of 150 and 100.
        String types = "<transactiontypes>" + type("ReadRecord") + type("ExtendRecord") + "</transactiontypes>";
        String body = "<terminals>1</terminals><randomSeed>3</randomSeed><recordcount>100</recordcount>"
                + "<fieldcount>2</fieldcount><fieldlength>20</fieldlength><extendfieldlength>10</extendfieldlength>"
                + "<maxfieldlength>2000</maxfieldlength><table>paced</table><monitor><enabled>false</enabled></monitor>"
                + types + "<works><work><count>150</count><rate>500</rate><weights>50,50</weights></work>"
                + "<work><count>100</count><rate>500</rate><weights>50,50</weights></work></works></parameters>";
        Path cfg = write("paced.xml", "<parameters>" + sqlite(tmp.resolve("paced.db")) + body);
        Path trace = tmp.resolve("paced.trace.gz");
        CliHarness.Result r =
                CliHarness.run(CliArgs.createLoadExecute(cfg, tmp.resolve("results"), "--trace", trace.toString()));
        assertEquals(0, r.code(), r.err());
        Path fresh = write("paced-fresh.xml", "<parameters>" + sqlite(tmp.resolve("paced-fresh.db")) + body);
        r = replay(trace, fresh, "--create", "--load", "--timing", "recorded");
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("Replaying 250 operations of 1 terminals (timing recorded)"), r.out());
        Path dir;
        try (Stream<Path> dirs = Files.list(tmp.resolve("replays"))) {
            dir = dirs.findFirst().orElseThrow();
        }
        List<String> summary = Files.readAllLines(dir.resolve("replay-summary.txt"));
        assertTrue(summary.contains("timing recorded"), summary.toString());
        assertTrue(summary.contains("records 250"), summary.toString());
        Pattern line = Pattern.compile("start lateness phase (\\d+) \\(actual - intended\\) over (\\d+) operations:"
                + " p50=(\\d+\\.\\d{3}) ms p99=(\\d+\\.\\d{3}) ms max=(\\d+\\.\\d{3}) ms");
        List<Matcher> lateness =
                summary.stream().map(line::matcher).filter(Matcher::matches).toList();
        assertEquals(2, lateness.size(), summary.toString());
        int[] expected = {150, 100};
        for (int phase = 0; phase < 2; phase++) {
            Matcher m = lateness.get(phase);
            assertEquals(phase, Integer.parseInt(m.group(1)), m.group());
            assertEquals(expected[phase], Integer.parseInt(m.group(2)), m.group());
            double p50 = Double.parseDouble(m.group(3));
            double p99 = Double.parseDouble(m.group(4));
            double max = Double.parseDouble(m.group(5));
            assertTrue(0 <= p50 && p50 <= p99 && p99 <= max, m.group());
            assertTrue(r.out().contains(m.group()), "printed too: " + r.out());
        }
    }

    @Test
    void otherDataIsADigestMismatchNamingTheFirstDifferingRead() throws Exception {
        Path trace = traceRun();
        Path other = write("other.xml", config(sqlite(tmp.resolve("other.db")), 8));
        CliHarness.Result r = replay(trace, other, "--create", "--load", "--timing", "fast");
        assertEquals(1, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("digests differ"), r.out());
        assertTrue(
                r.out().matches("(?s).*terminal 0 seq \\d+: (read|scan) user\\d+ returned a different result.*"),
                r.out());
    }

    @Test
    void damagedTracesAreRefusedWithOneLine() throws Exception {
        Path trace = traceRun();
        Path cfg = write("t.xml", config(sqlite(tmp.resolve("t.db")), 7));
        byte[] bytes = Files.readAllBytes(trace);
        Path truncated = tmp.resolve("truncated.gz");
        Files.write(truncated, Arrays.copyOf(bytes, bytes.length / 2));
        CliHarness.Result r = replay(truncated, cfg);
        assertEquals(2, r.code(), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().contains("truncated"), r.err());

        Path future = tmp.resolve("future.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(future))) {
            out.write("{\"trace\":\"ivsbench-trace\",\"format\":99}\n".getBytes(StandardCharsets.UTF_8));
        }
        r = replay(future, cfg);
        assertEquals(2, r.code(), r.err());
        assertEquals(
                "error: --trace " + future + ": trace format version 99 is not supported (this build reads"
                        + " versions 1 to 2)",
                r.err().strip());

        r = replay(tmp.resolve("run.xml"), cfg);
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("not a gzip-compressed trace"), r.err());

        // -c is checked as the run command checks it (CommandSetup): a folder is named as one.
        r = replay(trace, tmp);
        assertEquals(2, r.code(), r.err());
        assertEquals("error: -c: '" + tmp + "' is a directory", r.err().strip());
    }

    @Test
    void badTraceOptionsAreUsageErrors() throws Exception {
        Path cfg = write("o.xml", config(sqlite(tmp.resolve("o.db")), 7));
        CliHarness.Result r = CliHarness.run(
                "-b",
                "ycsbivs",
                "-c",
                cfg.toString(),
                "--create",
                "--trace",
                tmp.resolve("t.gz").toString());
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("--trace") && r.err().contains("needs --execute"), r.err());
        r = CliHarness.run(
                "-b",
                "ycsbivs",
                "-c",
                cfg.toString(),
                "--execute",
                "--trace",
                tmp.resolve("missing/t.gz").toString());
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("is not a file in an existing folder"), r.err());
        r = replay(tmp.resolve("t.gz"), cfg, "--timing", "slow");
        assertEquals(2, r.code(), r.err());
        assertEquals("error: --timing: 'slow' must be recorded or fast", r.err().strip());
    }
}
